/**
 * A connection to Redis over a Unix socket (a path given as its URL, which ioredis reads, a
 * password in its query too) is named by that path when a connection of its own (a
 * subscription, a blocking read) cannot be made. It used to be named `redis://localhost:6379`,
 * the defaults ioredis fills in: a user was sent looking for a server that was never asked.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectRedis, duplicateOf } from '../../src/backend/redis-connection.js';
import { RedisBackendError } from '../../src/backend/redis-backend-error.js';
import { HAS_REDIS, startRedis, type RedisServer } from './redis-server.js';

const PASSWORD = 'hunter2-socket';

describe.skipIf(!HAS_REDIS)('a connection over a Unix socket', () => {
  let dir = '';
  let server: RedisServer | undefined;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'rx-redis-sock-'));
    server = await startRedis(['--unixsocket', join(dir, 'redis.sock'), '--unixsocketperm', '700', '--requirepass', PASSWORD]);
  });
  afterAll(async () => {
    await server?.stop();
    await rm(dir, { recursive: true, force: true });
  });

  it('is named by its path, without its password, when a duplicate of it cannot connect', async () => {
    const socket = join(dir, 'redis.sock');
    const client = await connectRedis(`${socket}?password=${PASSWORD}`, 10_000);
    try {
      expect(await client.ping()).toBe('PONG');
      await rm(socket); // the server goes on; no new connection reaches it
      const failed = await duplicateOf(client, 10_000).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(RedisBackendError.isInstance(failed)).toBe(true);
      const message = (failed as Error).message;
      expect(message).toContain(`cannot reach Redis at ${socket}:`);
      expect(message).not.toContain('localhost');
      expect(message).not.toContain(PASSWORD);
    } finally {
      client.disconnect();
    }
  });
});
