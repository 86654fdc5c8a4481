/**
 * What the planted-FIFO tests share: planting a FIFO (`mkfifo`) under a session file's name,
 * and a deadline that turns a hang into a failing test. A hang would also hold a libuv
 * thread blocked in open(2) for ever, so on the deadline the FIFO is opened from the other
 * side to let that thread go before the test fails.
 */
import { execFileSync } from 'node:child_process';
import { constants } from 'node:fs';
import { mkdir, open, rm } from 'node:fs/promises';
import { dirname } from 'node:path';

/** Far above what these calls take (milliseconds): only a hang reaches it. */
const DEADLINE_MS = 10_000;

/** The FIFOs planted in the current test, released and removed by {@link releaseFifos}. */
const planted = new Set<string>();

/** Makes `file` a FIFO (its folder made first; anything there before removed). */
export async function plantFifo(file: string): Promise<string> {
  await mkdir(dirname(file), { recursive: true });
  await rm(file, { force: true, recursive: true });
  execFileSync('mkfifo', [file]);
  planted.add(file);
  return file;
}

/** Makes `file` a folder (with a file in it, so it is no empty leftover); anything there before removed. */
export async function plantFolder(file: string): Promise<string> {
  await rm(file, { force: true, recursive: true });
  await mkdir(file, { recursive: true });
  const inner = await open(`${file}/kept.txt`, 'w');
  await inner.writeFile('not the store\'s\n');
  await inner.close();
  return file;
}

/**
 * `work`'s outcome, or a rejection saying it hung when it has not settled within the
 * deadline (then the planted FIFOs are released first, so nothing stays blocked).
 */
export async function promptly<T>(work: Promise<T>, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const hung = new Promise<never>((_, fail) => {
    timer = setTimeout(() => {
      void releaseFifos().then(() => fail(new Error(`${what} did not end within ${DEADLINE_MS} ms: it blocked on a planted FIFO`)));
    }, DEADLINE_MS);
  });
  try {
    return await Promise.race([work, hung]);
  } finally {
    clearTimeout(timer);
  }
}

/** Opens each planted FIFO from both sides for a moment (a blocked reader or writer goes on), then forgets them. */
export async function releaseFifos(): Promise<void> {
  for (const fifo of planted) {
    const reader = await open(fifo, constants.O_RDONLY | constants.O_NONBLOCK).catch(() => undefined);
    const writer = await open(fifo, constants.O_WRONLY | constants.O_NONBLOCK).catch(() => undefined);
    await writer?.close();
    await reader?.close();
  }
  planted.clear();
}
