/**
 * The hub's subscriber connection is made with `autoResubscribe: false` (ioredis's own
 * `SUBSCRIBE` after a reconnect has no handler: a backend closed while it was on its way failed
 * the process with an unhandled "Connection is closed."). The hub subscribes its channels again
 * itself once the connection is back: a connection dropped under it (CLIENT KILL, a restart, a
 * blip) must not leave it deaf.
 */
import { Redis } from 'ioredis';
import { afterEach, describe, expect, it } from 'vitest';
import { ChannelHub } from '../../src/backend/channel-hub.js';
import { duplicateOf } from '../../src/backend/redis-connection.js';
import { redisBackendPerFile } from './redis-backend-per-file.js';
import { HAS_REDIS } from './redis-server.js';
import { waitFor } from './scale-kit.js';

describe.skipIf(!HAS_REDIS)('ChannelHub after its connection is dropped', () => {
  const file = redisBackendPerFile('hubresub', 60_000);
  const open: Redis[] = [];
  afterEach(() => {
    for (const connection of open.splice(0)) connection.disconnect();
  });
  const admin = (): Redis => file.backend.parts.redis;

  /** A subscriber connection made as the backend makes its hub's. */
  async function subscriber(): Promise<{ sub: Redis; id: number }> {
    const sub = await duplicateOf(admin(), 5000, { autoResubscribe: false });
    open.push(sub);
    return { sub, id: Number(await sub.client('ID')) };
  }

  it('hears its channels again after Redis killed the connection, each listener once', async () => {
    const { sub, id } = await subscriber();
    const hub = new ChannelHub(sub);
    const heard: string[] = [];
    await hub.listen('hubresub:a', (text) => void heard.push(`a:${text}`));
    await hub.listen('hubresub:b', (text) => void heard.push(`b1:${text}`));
    await hub.listen('hubresub:b', (text) => void heard.push(`b2:${text}`));
    const stopped = await hub.listen('hubresub:c', () => void heard.push('c'));
    stopped(); // taken off before the drop: not subscribed again
    expect(await admin().client('KILL', 'ID', String(id))).toBe(1);
    await waitFor(async () => (await admin().publish('hubresub:a', 'probe')) === 1, 10_000);
    await waitFor(() => heard.includes('a:probe'));
    heard.length = 0;
    expect(await admin().publish('hubresub:b', 'one')).toBe(1);
    expect(await admin().publish('hubresub:c', 'none')).toBe(0);
    expect(await admin().publish('hubresub:a', 'two')).toBe(1);
    await waitFor(() => heard.length === 3);
    expect(heard).toEqual(['b1:one', 'b2:one', 'a:two']);
    hub.close();
  });

  it('a hub closed as its connection comes back leaves no unhandled rejection, and listens no more', async () => {
    const { sub, id } = await subscriber();
    const hub = new ChannelHub(sub);
    await hub.listen('hubresub:d', () => undefined);
    const unhandled: unknown[] = [];
    const note = (reason: unknown): void => void unhandled.push(reason);
    process.on('unhandledRejection', note);
    try {
      // Dropped again and closed as the reconnect is ready (a second blip, then the backend's
      // close): the SUBSCRIBE sent for the hub's channels fails with "Connection is closed."
      // (ioredis's own resubscribe left that rejection unhandled).
      const ended = new Promise((resolve) => sub.once('end', resolve));
      sub.once('ready', () => {
        sub.stream.destroy();
        hub.close();
      });
      expect(await admin().client('KILL', 'ID', String(id))).toBe(1);
      await ended;
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(unhandled).toEqual([]);
      expect(await admin().publish('hubresub:d', 'late')).toBe(0);
    } finally {
      process.off('unhandledRejection', note);
    }
  });
});
