/**
 * Runs the built CLI (`dist/cli.js`, produced by `npm run build`), or the sources through
 * `tsx`, as a real process with a controlled environment: only `PATH`, a temporary `HOME` and
 * what the test passes, so the user's `~/.rxharness` and `OPENAI_*` variables never leak in.
 *
 * @module
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** The built bin. */
export const CLI_PATH = fileURLToPath(new URL('../../dist/cli.js', import.meta.url));

/** The repository's root, where `tsx` resolves and `src/cli.ts` is. */
const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** A CLI process being run. */
export interface CliProcess {
  readonly child: ChildProcess;
  stdout(): string;
  stderr(): string;
  /** Resolves once stdout contains `text`; rejects if the process exits first. */
  waitForStdout(text: string): Promise<void>;
  /** Resolves with the exit code (or the signal that killed it) and the full output. */
  readonly exited: Promise<CliResult>;
}

/** How a CLI process ended. */
export interface CliResult {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** Options of {@link spawnCli}. */
export interface SpawnCliOptions {
  /** The temporary home folder (required: the real one must never be read). */
  readonly home: string;
  readonly cwd: string;
  readonly env?: Readonly<Record<string, string>>;
}

/** Starts `node dist/cli.js ...args`. */
export function spawnCli(args: readonly string[], options: SpawnCliOptions): CliProcess {
  if (!existsSync(CLI_PATH)) throw new Error(`${CLI_PATH} is missing: run "npm run build" first (npm test does it)`);
  return watched(spawn(process.execPath, [CLI_PATH, ...args], { cwd: options.cwd, env: environment(options), stdio: ['ignore', 'pipe', 'pipe'] }));
}

/**
 * Starts `src/cli.ts ...args` through `tsx`: the sources as they are now, no build needed, so a
 * test of the process's own signal handling tests the code beside it. Slower to start than
 * {@link spawnCli} (it compiles as it loads). It runs in the repository's root, where `tsx`
 * resolves, whatever `options.cwd` says: name the workspace with `--workspace`.
 */
export function spawnSourceCli(args: readonly string[], options: SpawnCliOptions): CliProcess {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli.ts', ...args], { cwd: ROOT, env: environment(options), stdio: ['ignore', 'pipe', 'pipe'] });
  return watched(child);
}

function environment(options: SpawnCliOptions): NodeJS.ProcessEnv {
  return { PATH: process.env.PATH ?? '', HOME: options.home, ...options.env };
}

function watched(child: ChildProcess): CliProcess {
  let out = '';
  let err = '';
  const waiting: Array<{ text: string; resolve: () => void }> = [];
  child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
    out += chunk;
    for (const w of waiting.filter((x) => out.includes(x.text))) {
      waiting.splice(waiting.indexOf(w), 1);
      w.resolve();
    }
  });
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (err += chunk));
  const exited = new Promise<CliResult>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code, signal) => resolve({ code, signal, stdout: out, stderr: err }));
  });
  return {
    child,
    stdout: () => out,
    stderr: () => err,
    waitForStdout: (text) =>
      out.includes(text)
        ? Promise.resolve()
        : Promise.race([
            new Promise<void>((resolve) => waiting.push({ text, resolve })),
            exited.then((r) => {
              throw new Error(`the CLI exited (code ${r.code}) before printing "${text}"; stderr: ${r.stderr}`);
            }),
          ]),
    exited,
  };
}

/** Runs the CLI to its end. */
export function runCli(args: readonly string[], options: SpawnCliOptions): Promise<CliResult> {
  return spawnCli(args, options).exited;
}

/** The address `rxharness serve` printed (without its `?token=`), and the token, once printed. */
export async function servedAddress(process: CliProcess): Promise<{ url: string; token: string }> {
  await process.waitForStdout('rxharness serve: ');
  const [, url, token] = /(http:\/\/127\.0\.0\.1:\d+\/)\?token=([\w-]+) /.exec(process.stdout())!;
  return { url: url!, token: token! };
}
