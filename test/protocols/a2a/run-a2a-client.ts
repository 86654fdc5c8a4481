/**
 * Starts `a2a-client-script.ts` (the SDK's client) in a process of its own and collects the
 * JSON lines it prints.
 *
 * @module
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const SCRIPT = fileURLToPath(new URL('./a2a-client-script.ts', import.meta.url));

/** One line the client printed. */
export type ClientLine = { readonly kind: string; readonly [key: string]: unknown };

/** A running client: its process, and every line once it has exited. */
export interface A2AClientProcess {
  readonly child: ChildProcess;
  /** The lines printed so far. */
  readonly lines: ClientLine[];
  /** Resolves with every line when the process has exited. */
  readonly done: Promise<ClientLine[]>;
  /** Resolves when a line matching `test` has been printed. */
  waitFor(test: (line: ClientLine) => boolean): Promise<ClientLine>;
}

/** Runs the client with `args` (see the script), `token` in `A2A_TOKEN` when given. */
export function runA2AClient(args: readonly string[], token?: string): A2AClientProcess {
  const child = spawn(process.execPath, ['--import', 'tsx', SCRIPT, ...args], {
    env: { ...process.env, ...(token ? { A2A_TOKEN: token } : {}) },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  const lines: ClientLine[] = [];
  const waiters: { test: (line: ClientLine) => boolean; resolve: (line: ClientLine) => void }[] = [];
  let buffer = '';
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  child.stdout!.on('data', (chunk: Buffer) => {
    buffer += chunk.toString();
    let at: number;
    while ((at = buffer.indexOf('\n')) >= 0) {
      const line = JSON.parse(buffer.slice(0, at)) as ClientLine;
      buffer = buffer.slice(at + 1);
      lines.push(line);
      for (const waiter of waiters.filter((w) => w.test(line))) {
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.resolve(line);
      }
    }
  });
  const done = new Promise<ClientLine[]>((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', () => (stderr.trim() && !lines.length ? reject(new Error(`the A2A client wrote: ${stderr}`)) : resolve(lines)));
  });
  return {
    child,
    lines,
    done,
    waitFor: (test) => {
      const seen = lines.find(test);
      return seen ? Promise.resolve(seen) : new Promise((resolve) => waiters.push({ test, resolve }));
    },
  };
}
