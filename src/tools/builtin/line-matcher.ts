import { Worker } from 'node:worker_threads';

/** A matching line: its zero-based index and its text. */
export type LineMatch = readonly [index: number, line: string];

/** Finds the lines of a text that a regular expression matches, off the main thread. */
export interface LineMatcher {
  /** The matching lines with their zero-based indexes, at most `max + 1` (one more says "there are more"). */
  match(text: string, max: number): Promise<LineMatch[]>;
  /** Stops the worker (pending and later matches reject); resolves once its thread has exited. */
  close(): Promise<void>;
}

// Runs in the worker (CommonJS, evaluated from this string, so it works from the sources and
// from dist alike). A catastrophic pattern can spin here for ever: only the worker spins.
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const regex = new RegExp(workerData);
parentPort.on('message', ({ text, max }) => {
  const lines = text.split(/\\r?\\n/);
  const hits = [];
  for (let i = 0; i < lines.length && hits.length <= max; i += 1) if (regex.test(lines[i])) hits.push([i, lines[i]]);
  parentPort.postMessage(hits);
});`;

/**
 * Starts a worker thread matching `pattern` (already checked to compile). A JavaScript
 * regular expression can backtrack for minutes on one line (`(a+)+$`); in a worker that
 * blocks nothing else, and aborting `signal` (the tool's cancel or timeout) terminates it.
 */
export function startLineMatcher(pattern: string, signal: AbortSignal): LineMatcher {
  const worker = new Worker(WORKER_SOURCE, { eval: true, workerData: pattern });
  let pending: { resolve: (hits: LineMatch[]) => void; reject: (e: Error) => void } | undefined;
  const fail = (error: Error): void => {
    pending?.reject(error);
    pending = undefined;
  };
  let closed = false;
  // Whatever ends the thread (close, a crash), nothing may wait on it afterwards.
  const exited = new Promise<void>((resolve) =>
    worker.once('exit', () => {
      closed = true;
      fail(searchStopped());
      resolve();
    }),
  );
  const close = (): Promise<void> => {
    closed = true;
    signal.removeEventListener('abort', onAbort);
    fail(searchStopped());
    void worker.terminate();
    return exited;
  };
  const onAbort = (): void => void close();
  signal.addEventListener('abort', onAbort, { once: true });
  worker.on('message', (hits: LineMatch[]) => {
    pending?.resolve(hits);
    pending = undefined;
  });
  worker.on('error', fail);
  return {
    match(text, max) {
      if (closed || signal.aborted) return Promise.reject(searchStopped());
      return new Promise((resolve, reject) => {
        pending = { resolve, reject };
        worker.postMessage({ text, max });
      });
    },
    close,
  };
}

/** The error of a search stopped by its signal (the tool's cancel or timeout), wherever it was. */
export function searchStopped(): Error {
  return new Error('the search was stopped');
}
