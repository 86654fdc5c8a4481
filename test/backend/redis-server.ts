/**
 * A real `redis-server` for one test file: started on a free loopback port with persistence
 * off, stopped (SIGKILL after a grace) when the file is done. Nothing is mocked at the
 * Redis boundary. Without the program the tests skip with a visible note, or fail under
 * `RXHARNESS_REQUIRE_SYSTEM=1` (CI).
 *
 * @module
 */
import { spawnSync, type ChildProcess } from 'node:child_process';
import { freePort, spawnRedis, stopRedis } from '../support/redis-process.js';
import { systemProgram } from '../support/system-requirement.js';

/** The path of `redis-server`, if installed. */
export function findRedisServer(): string | undefined {
  const found = spawnSync('sh', ['-c', 'command -v redis-server'], { encoding: 'utf8' });
  const path = found.stdout.trim();
  return found.status === 0 && path ? path : undefined;
}

/** Whether the Redis tests run (a note or a failure otherwise; see `systemProgram`). */
export const HAS_REDIS = systemProgram('redis-server', findRedisServer(), 'sudo apt-get install -y redis-server');

/** A running server. */
export interface RedisServer {
  readonly port: number;
  readonly url: string;
  /** Stops it; resolves when the process has exited. */
  stop(): Promise<void>;
  /** Starts it again on the same port (after `stop`). */
  restart(): Promise<void>;
}

/** A free TCP port of 127.0.0.1. */
export { freePort };

/** Starts `redis-server` on a free port (with `extraArgs`, see `spawnRedis`); resolves once it accepts connections. */
export async function startRedis(extraArgs: readonly string[] = []): Promise<RedisServer> {
  const port = await freePort();
  let child: ChildProcess | undefined;
  const launch = async (): Promise<void> => {
    child = await spawnRedis(findRedisServer()!, port, extraArgs);
  };
  const stop = async (): Promise<void> => {
    const proc = child;
    child = undefined;
    await stopRedis(proc);
  };
  await launch();
  return { port, url: `redis://127.0.0.1:${port}`, stop, restart: launch };
}
