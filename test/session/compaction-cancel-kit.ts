/**
 * What compaction-tail-cancel.test.ts needs to stop a compacting turn at each of its points:
 * the calls of `node:fs/promises` and of its `FileHandle`s seen in this test file's worker
 * (each passed on unchanged, as delete-file-system-calls.test.ts counts them), with a hook told
 * of each before it runs, and the prompts of a transcript.
 *
 * @module
 */
import fsp from 'node:fs/promises';
import { syncBuiltinESMExports } from 'node:module';
import type { ChatMessage } from '../../src/model/chat-message.js';

/** Called before each file-system call made while set (its name): where a test cancels a run. */
let beforeFileCall: ((name: string) => void) | undefined;

/** Sets (or clears) {@link beforeFileCall}. */
export function onFileCall(hook: ((name: string) => void) | undefined): void {
  beforeFileCall = hook;
}

/** Wraps every function of `target` (its own keys) so that {@link beforeFileCall} hears of it first. */
function watch(target: Record<string, unknown>, prefix: string): void {
  for (const name of Object.getOwnPropertyNames(target)) {
    const value = Object.getOwnPropertyDescriptor(target, name)?.value as unknown;
    if (typeof value !== 'function' || name === 'constructor' || name === 'constants') continue;
    target[name] = function (this: unknown, ...args: unknown[]) {
      beforeFileCall?.(prefix + name);
      return (value as (...a: unknown[]) => unknown).apply(this, args);
    };
  }
}

/** Watches `node:fs/promises` and the `FileHandle` prototype (found from one handle opened on `file`), in this worker only. */
export async function watchFileCalls(file: string): Promise<void> {
  const handle = await fsp.open(file, 'r');
  const proto = Object.getPrototypeOf(handle) as Record<string, unknown>;
  await handle.close();
  watch(fsp as unknown as Record<string, unknown>, '');
  watch(proto, 'handle.');
  syncBuiltinESMExports();
}

/** The user prompts of `messages`, in order. */
export function prompts(messages: readonly ChatMessage[]): string[] {
  return messages.filter((m) => m.role === 'user').map((m) => String(m.content));
}
