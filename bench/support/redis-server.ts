/**
 * A throwaway `redis-server` for a benchmark: started on a free loopback port with
 * persistence off, stopped (SIGKILL after a grace) when the benchmark is done. The process
 * itself is started as the tests start theirs (test/support/redis-process.ts). Also reads `INFO memory` and what the keys of a prefix hold.
 *
 * @module
 */
import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';
import { Redis } from 'ioredis';
import { freePort, spawnRedis, stopRedis } from '../../test/support/redis-process.js';

/** The path of `redis-server` (`$REDIS_SERVER`, else the first on `PATH`), if installed. */
export function findRedisServer(): string | undefined {
  const candidates = process.env.REDIS_SERVER ? [process.env.REDIS_SERVER] : (process.env.PATH ?? '').split(delimiter).filter(Boolean).map((dir) => join(dir, 'redis-server'));
  return candidates.find((path) => {
    try {
      accessSync(path, constants.X_OK);
      return true;
    } catch {
      return false;
    }
  });
}

/** A running server, with a client of the bench's own for `INFO` and key scans. */
export interface BenchRedis {
  readonly url: string;
  /** The server's process id. */
  readonly pid: number;
  /** `used_memory` from `INFO memory`, in bytes. */
  usedMemory(): Promise<number>;
  /** A numeric field of `INFO <section>`, e.g. `total_connections_received` of `stats`. */
  infoField(section: string, field: string): Promise<number>;
  /** How many fields the hash `key` has. */
  hashLength(key: string): Promise<number>;
  /** Every key under `prefix:`, grouped by its kind (the part after the prefix): count and `MEMORY USAGE` bytes. Scanning also expires the keys past their TTL. */
  keysOf(prefix: string): Promise<Record<string, { keys: number; bytes: number }>>;
  /** Empties the server (`FLUSHALL`). */
  flush(): Promise<void>;
  /** Stops the server; resolves when the process has exited. */
  stop(): Promise<void>;
}

/** Starts `program` on a free port; resolves once it accepts connections. */
export async function startRedis(program: string): Promise<BenchRedis> {
  const port = await freePort();
  const proc = await spawnRedis(program, port);
  // If the bench process dies, so does its server.
  const killOnExit = (): void => void proc.kill('SIGKILL');
  process.once('exit', killOnExit);
  const url = `redis://127.0.0.1:${port}`;
  const client = new Redis(url, { maxRetriesPerRequest: 1, lazyConnect: true });
  client.on('error', () => undefined);
  await client.connect();
  const infoField = async (section: string, field: string): Promise<number> => {
    const info = await client.info(section);
    const match = new RegExp(`^${field}:(\\d+)`, 'm').exec(info);
    if (!match) throw new Error(`INFO ${section} has no ${field}`);
    return Number(match[1]);
  };
  return {
    url,
    pid: proc.pid!,
    usedMemory: () => infoField('memory', 'used_memory'),
    infoField,
    hashLength: (key) => client.hlen(key),
    keysOf: async (prefix) => {
      const kinds: Record<string, { keys: number; bytes: number }> = {};
      let cursor = '0';
      do {
        const [next, found] = await client.scan(cursor, 'MATCH', `${prefix}:*`, 'COUNT', 1000);
        cursor = next;
        for (const key of found) {
          const bytes = Number((await client.memory('USAGE', key)) ?? 0);
          const rest = key.slice(prefix.length + 1);
          // BullMQ's keys by their last part (`bull:tasks:events`: its events stream); ours by kind.
          const last = rest.split(':').at(-1)!;
          const kind = rest.startsWith('bull:') ? `bull:${last.startsWith('task_') ? 'job' : last}` : rest.split(':')[0]!;
          const entry = (kinds[kind] ??= { keys: 0, bytes: 0 });
          entry.keys++;
          entry.bytes += bytes;
        }
      } while (cursor !== '0');
      return kinds;
    },
    flush: async () => {
      await client.flushall();
    },
    stop: async () => {
      client.disconnect();
      process.off('exit', killOnExit);
      await stopRedis(proc);
    },
  };
}
