/**
 * Heap snapshots of `rxharness serve` under the serve-load benchmark's load, to see what each
 * live run holds (issue 28.1's memory part). Not part of the run:
 *
 * ```sh
 * npm run build && RXHARNESS_LOAD_RUNS=200 node --import tsx bench/support/heap-at-peak.ts [delayMs]
 * node --import tsx bench/support/heap-summary.ts <idle> <peak> <runs>
 * ```
 *
 * Starts the paced model and `serve` (as `bench/serve-load.ts` does, with
 * `--heapsnapshot-signal=SIGUSR2`), warms up with 20 runs, takes a snapshot (idle), starts
 * the runs, and `delayMs` (default 2,500) later, while they all stream, takes another (peak).
 * When the runs are done, takes a third (after: the finished runs as the registry keeps them
 * for replay) and prints the three files' paths (written in a temporary folder).
 *
 * @module
 */
import { mkdtempSync, readdirSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { startLineProcess } from './line-process.js';

const RUNS = Number(process.env['RXHARNESS_LOAD_RUNS'] ?? 200);
const DELAY_MS = Number(process.argv[2] ?? 2_500);
const here = (file: string): string => fileURLToPath(new URL(file, import.meta.url));
const TSX = ['--import', 'tsx'];

/** Sends SIGUSR2 and waits until the snapshot file stops growing; returns its path. */
async function snapshot(pid: number, dir: string): Promise<string> {
  const before = new Set(readdirSync(dir));
  process.kill(pid, 'SIGUSR2');
  for (;;) {
    await sleep(250);
    const file = readdirSync(dir).find((f) => f.endsWith('.heapsnapshot') && !before.has(f));
    if (!file) continue;
    const size = statSync(join(dir, file)).size;
    await sleep(1_000);
    if (statSync(join(dir, file)).size === size && size > 0) return join(dir, file);
  }
}

const drive = (url: string, token: string, runs: number): Promise<unknown> =>
  startLineProcess([...TSX, here('./load-clients.ts'), JSON.stringify({ url, token, runs })], 'the load clients').then((c) => JSON.parse(c.firstLine));

const model = await startLineProcess([...TSX, here('./paced-model.ts')], 'the paced model');
const dir = mkdtempSync(join(tmpdir(), 'rxharness-heap-'));
const token = randomBytes(18).toString('base64url');
const { baseURL } = JSON.parse(model.firstLine) as { baseURL: string };
const args = ['--heapsnapshot-signal=SIGUSR2', `--diagnostic-dir=${dir}`, here('../../dist/cli.js'), 'serve', '--port', '0', '--model', 'paced', '--base-url', baseURL, `--token=${token}`, '--max-runs', String(RUNS * 2), '--max-tasks', '0', '--max-retries', '0', '--workspace', dir];
const server = await startLineProcess(args, 'rxharness serve');
try {
  const url = /(http:\/\/127\.0\.0\.1:\d+)/.exec(server.firstLine)![1]!;
  await drive(url, token, 20);
  const idle = await snapshot(server.child.pid!, dir);
  const load = drive(url, token, RUNS);
  await sleep(DELAY_MS);
  const peak = await snapshot(server.child.pid!, dir);
  const report = (await load) as { completed: number };
  const after = await snapshot(server.child.pid!, dir);
  process.stdout.write(`${JSON.stringify({ idle, peak, after, runs: RUNS, completed: report.completed })}\n`);
} finally {
  await server.stop();
  await model.stop();
}
