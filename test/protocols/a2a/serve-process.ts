/**
 * `rxharness serve` as a real process, run from the sources (tsx), for the A2A tests: the
 * remote agent a first engine delegates to.
 *
 * @module
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath, pathToFileURL } from 'node:url';

const CLI = fileURLToPath(new URL('../../../src/cli.ts', import.meta.url));
const TSX = pathToFileURL(fileURLToPath(new URL('../../../node_modules/tsx/dist/loader.mjs', import.meta.url))).href;

/** A running `rxharness serve`. */
export interface ServeProcess {
  readonly child: ChildProcess;
  /** `http://127.0.0.1:<port>`. */
  readonly base: string;
  /** Stops it (SIGINT, as Ctrl+C) and waits for the exit. */
  stop(): Promise<void>;
}

/** Starts `rxharness serve` for a model at `baseURL` with `token`, in `cwd` with `home` as its home. */
export async function startServe(options: { baseURL: string; token: string; cwd: string; home: string }): Promise<ServeProcess> {
  const args = ['serve', '--model', 'remote-model', '--base-url', options.baseURL, '--api-key', 'k', '--port', '0', '--token', options.token];
  const child = spawn(process.execPath, ['--import', TSX, CLI, ...args], {
    cwd: options.cwd,
    env: { PATH: process.env.PATH ?? '', HOME: options.home },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stderr!.on('data', (chunk: Buffer) => (err += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const base = await new Promise<string>((resolve, reject) => {
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const match = /(http:\/\/127\.0\.0\.1:\d+)\/\?token=/.exec(out);
      if (match) resolve(match[1]!);
    });
    void exited.then(() => reject(new Error(`rxharness serve exited before it listened: ${err || out}`)));
  });
  return {
    child,
    base,
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGINT');
      await exited;
    },
  };
}
