/**
 * Two listens on one channel, the second coming while the hub's `SUBSCRIBE` for the first is
 * still on its way. The second used to resolve at once: a message published right after it
 * resolved could be missed (Redis had not subscribed the hub yet), and a subscribe that failed
 * was reported to the first caller only, the second left believing it listened. Every listen
 * now waits for the same confirmation, and sees the same failure.
 */
import { Redis } from 'ioredis';
import { afterEach, describe, expect, it } from 'vitest';
import { ChannelHub } from '../../src/backend/channel-hub.js';
import { redisBackendPerFile } from './redis-backend-per-file.js';
import { HAS_REDIS } from './redis-server.js';
import { waitFor } from './scale-kit.js';

const USER = 'nochannels';

describe.skipIf(!HAS_REDIS)("ChannelHub.listen while the channel's subscribe is pending", () => {
  const file = redisBackendPerFile('listenpending', 60_000);
  const open: Redis[] = [];
  afterEach(() => {
    for (const connection of open.splice(0)) connection.disconnect();
  });
  const admin = (): Redis => file.backend.parts.redis;

  it('the second listen resolves once Redis subscribed the hub: a message published then is heard', async () => {
    const sub = new Redis(file.redis.url);
    open.push(sub);
    await sub.ping();
    // Redis reads nothing more from a blocked connection: the SUBSCRIBE waits behind the BLPOP.
    const held = sub.blpop('listenpending:hold', 0);
    const hub = new ChannelHub(sub);
    const channel = 'listenpending:a';
    const heard: string[] = [];
    const first = hub.listen(channel, () => undefined);
    const second = hub.listen(channel, (text) => void heard.push(text));
    let resolved = false;
    void second.then(() => (resolved = true));
    expect(await admin().publish(channel, 'before')).toBe(0); // not subscribed yet
    expect(resolved).toBe(false);
    await admin().lpush('listenpending:hold', 'go');
    await held;
    await Promise.all([first, second]);
    expect(await admin().publish(channel, 'after')).toBe(1);
    await waitFor(() => heard.length === 1);
    expect(heard).toEqual(['after']);
    hub.close();
  });

  it('a subscribe Redis refuses fails every listen waiting on it, and a listen after them subscribes anew', async () => {
    await admin().call('ACL', 'SETUSER', USER, 'reset', 'on', '>pw', '~*', 'resetchannels', '+@all');
    const sub = new Redis(file.redis.url, { username: USER, password: 'pw', maxRetriesPerRequest: 0 });
    open.push(sub);
    await sub.ping();
    const hub = new ChannelHub(sub);
    const channel = 'listenpending:b';
    try {
      const first = hub.listen(channel, () => undefined);
      const second = hub.listen(channel, () => undefined);
      await expect(first).rejects.toThrow(/NOPERM/);
      await expect(second).rejects.toThrow(/NOPERM/);
      await admin().call('ACL', 'SETUSER', USER, 'allchannels');
      const heard: string[] = [];
      await hub.listen(channel, (text) => void heard.push(text));
      expect(await admin().publish(channel, 'hello')).toBe(1);
      await waitFor(() => heard.length === 1);
      expect(heard).toEqual(['hello']);
    } finally {
      hub.close();
      await admin().call('ACL', 'DELUSER', USER);
    }
  });
});
