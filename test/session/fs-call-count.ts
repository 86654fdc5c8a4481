/**
 * Counts the calls made to `node:fs/promises` while an operation runs: its functions are wrapped
 * (pass-through, in the importing test file's worker only), so no module of ours is mocked; the
 * named imports of our modules see the wrappers (`syncBuiltinESMExports`). Every call still
 * reaches the system.
 */
import fsp from 'node:fs/promises';
import { syncBuiltinESMExports } from 'node:module';

/** One call made while counting: the function's name and its first argument, as a string. */
export interface FsCall {
  readonly name: string;
  readonly path: string;
}

const calls: FsCall[] = [];
let counting = false;
const module = fsp as unknown as Record<string, unknown>;
for (const [name, value] of Object.entries(module)) {
  if (typeof value !== 'function' || name === 'constants') continue;
  module[name] = function (this: unknown, ...args: unknown[]) {
    if (counting) calls.push({ name, path: String(args[0]) });
    return (value as (...a: unknown[]) => unknown).apply(this, args);
  };
}
syncBuiltinESMExports();

/** What `op` answered and the `node:fs/promises` calls it made (none of the test's own, made outside it). */
export async function fsCallsOf<T>(op: () => Promise<T>): Promise<{ result: T; calls: FsCall[] }> {
  calls.length = 0;
  counting = true;
  try {
    const result = await op();
    return { result, calls: [...calls] };
  } finally {
    counting = false;
    calls.length = 0;
  }
}
