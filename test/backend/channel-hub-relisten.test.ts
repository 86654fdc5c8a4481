/**
 * A listen on a channel the hub knows, made while its connection is down: it used to resolve
 * with the confirmation given before the drop, while Redis no longer had the subscription, so
 * a message published right after it resolved was missed. It now waits for Redis to have the
 * channel again. And each listener hears, once Redis confirmed it, that the channel was
 * subscribed again (what was published meanwhile it never heard).
 */
import { Redis } from 'ioredis';
import { afterEach, describe, expect, it } from 'vitest';
import { ChannelHub } from '../../src/backend/channel-hub.js';
import { duplicateOf } from '../../src/backend/redis-connection.js';
import { withHubsDown } from './hubs-down.js';
import { redisBackendPerFile } from './redis-backend-per-file.js';
import { HAS_REDIS } from './redis-server.js';
import { waitFor } from './scale-kit.js';

describe.skipIf(!HAS_REDIS)('ChannelHub listens across a drop of its connection', () => {
  const file = redisBackendPerFile('relisten', 60_000);
  const open: Redis[] = [];
  afterEach(() => {
    for (const connection of open.splice(0)) connection.disconnect();
  });
  const admin = (): Redis => file.backend.parts.redis;
  /** A hub on a subscriber connection made as the backend makes its hub's. */
  async function hub(): Promise<{ channels: ChannelHub; sub: Redis }> {
    const sub = await duplicateOf(admin(), 5000, { autoResubscribe: false });
    open.push(sub);
    return { channels: new ChannelHub(sub), sub };
  }

  it('a listen on a known channel made during the drop resolves once Redis has the channel again', async () => {
    const { channels, sub } = await hub();
    const heard: string[] = [];
    await channels.listen('relisten:a', () => undefined);
    let again: Promise<() => void> | undefined;
    // Waiting for no subscriber: the listen below is awaited as soon as connections are let back.
    await withHubsDown(admin(), 'relisten:a', 0, async () => {
      await waitFor(() => sub.status !== 'ready'); // the hub's side knows the connection is gone
      again = channels.listen('relisten:a', (text) => void heard.push(text));
    });
    await again;
    expect(await admin().publish('relisten:a', 'right after')).toBe(1);
    await waitFor(() => heard.length === 1);
    expect(heard).toEqual(['right after']);
    channels.close();
  });

  it("calls each listener's onResubscribed once Redis confirmed the channel again, not at the first subscribe", async () => {
    const { channels } = await hub();
    const told: string[] = [];
    await channels.listen('relisten:b', () => undefined, { onResubscribed: () => void told.push('b1') });
    const stop = await channels.listen('relisten:b', () => undefined, { onResubscribed: () => void told.push('b2') });
    await channels.listen('relisten:c', () => undefined, {
      onResubscribed: () => {
        told.push('c');
        throw new Error('a reload that fails at once'); // stops no other listener's
      },
    });
    stop();
    expect(told).toEqual([]);
    await withHubsDown(admin(), 'relisten:c', 1, async () => undefined);
    await waitFor(() => told.length === 2);
    expect(told.sort()).toEqual(['b1', 'c']);
    expect(await admin().publish('relisten:b', 'x')).toBe(1);
    channels.close();
  });
});
