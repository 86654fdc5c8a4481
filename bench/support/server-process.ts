/**
 * Starts `serve-bench.ts` in its own process, so the fake model's work does not share the
 * measured event loop, and talks to its control endpoint.
 *
 * @module
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

/** What the fake server counted. */
export interface ServerStats {
  readonly requests: number;
  readonly inFlight: number;
  readonly peakInFlight: number;
}

/** A running fake server process. */
export interface BenchServer {
  readonly baseURL: string;
  /** The server's counters. */
  stats(): Promise<ServerStats>;
  /** Restarts peak tracking (from the requests in flight now). */
  resetPeak(): Promise<ServerStats>;
  /** Closes its stdin (it then shuts down) and waits for it to exit. */
  close(): Promise<void>;
}

const SERVE = fileURLToPath(new URL('./serve-bench.ts', import.meta.url));

/** Starts the server for a scenario module under `bench/scenarios/`. */
export async function startServer(scenario: string): Promise<BenchServer> {
  const modulePath = fileURLToPath(new URL(`../scenarios/${scenario}.ts`, import.meta.url));
  const child = spawn(process.execPath, ['--import', 'tsx', SERVE, modulePath], { stdio: ['pipe', 'pipe', 'inherit'] });
  const lines = createInterface({ input: child.stdout });
  const [first] = (await Promise.race([
    once(lines, 'line'),
    once(child, 'exit').then(([code]) => {
      throw new Error(`the fake server for ${scenario} exited with code ${String(code)} before listening`);
    }),
  ])) as [string];
  lines.close();
  const { baseURL, statsURL } = JSON.parse(first) as { baseURL: string; statsURL: string };
  const ask = async (method: string): Promise<ServerStats> => (await (await fetch(statsURL, { method })).json()) as ServerStats;
  return {
    baseURL,
    stats: () => ask('GET'),
    resetPeak: () => ask('POST'),
    close: async () => {
      if (child.exitCode !== null) return;
      const exited = once(child, 'exit');
      child.stdin.end();
      await exited;
    },
  };
}
