/**
 * A helper process of a benchmark: spawned with a piped stdin (closing it stops the process),
 * its first stdout line read as the address it listens on, its CPU time and memory read
 * from `/proc` (Linux) while it works.
 *
 * @module
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';

/** A running helper process. */
export interface LineProcess {
  readonly child: ChildProcess;
  /** Its first line of output. */
  readonly firstLine: string;
  /** Closes stdin, then kills it if it has not exited within 5 s. */
  stop(): Promise<void>;
}

/** Starts `node <args>` (with `env` added to this process's environment) and resolves with its first stdout line. */
export async function startLineProcess(args: readonly string[], label: string, env: Readonly<Record<string, string>> = {}): Promise<LineProcess> {
  const child = spawn(process.execPath, args, { stdio: ['pipe', 'pipe', 'inherit'], env: { ...process.env, ...env } });
  const lines = createInterface({ input: child.stdout! });
  const [firstLine] = (await Promise.race([
    once(lines, 'line'),
    once(child, 'exit').then(([code]) => {
      throw new Error(`${label} exited with code ${String(code)} before it printed its address`);
    }),
  ])) as [string];
  lines.close();
  child.stdout!.resume();
  return {
    child,
    firstLine,
    stop: async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = once(child, 'exit');
      child.stdin!.end();
      const kill = setTimeout(() => child.kill('SIGKILL'), 5_000);
      await exited;
      clearTimeout(kill);
    },
  };
}

/** CPU time (user + system) of process `pid`, in ms. */
export function cpuMs(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  // fields[11] and [12] are utime and stime (fields 14 and 15 of proc(5)), in clock ticks of 10 ms
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

/** Resident memory of process `pid`, in bytes. */
export function rssBytes(pid: number): number {
  const line = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return Number(line?.[1] ?? 0) * 1024;
}

/** What process `pid` has asked of the kernel so far: its read and write calls (`read`, `readv`, `write`, `writev`, on sockets too), from `/proc/<pid>/io`. */
export function ioCalls(pid: number): { readonly reads: number; readonly writes: number } {
  const text = readFileSync(`/proc/${pid}/io`, 'utf8');
  const count = (name: string): number => Number(new RegExp(`^${name}: (\\d+)$`, 'm').exec(text)?.[1] ?? NaN);
  return { reads: count('syscr'), writes: count('syscw') };
}
