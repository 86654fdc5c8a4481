import { execFile } from 'node:child_process';
import { rmSync } from 'node:fs';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

/**
 * The in-process probes of `bench/support` (docs/performance.md quotes what each prints) run
 * at a tiny size against the built `dist`: a probe that stopped running, or printed no
 * number, would go unnoticed until someone measures again, since only tsc checked them. What
 * they measure is not asserted (timing belongs in bench/), only that each measured something.
 */
const ROOT = fileURLToPath(new URL('../../..', import.meta.url));
const run = promisify(execFile);

async function probe(file: string, ...args: string[]): Promise<string> {
  const flags = file.endsWith('-heap.ts') ? ['--expose-gc'] : [];
  const { stdout } = await run(process.execPath, [...flags, '--import', 'tsx', `bench/support/${file}`, ...args], { cwd: ROOT, timeout: 60_000 });
  return stdout;
}

/** Every number a line of `text` matching `pattern` captured, as numbers; the line must be there. */
function numbers(text: string, pattern: RegExp): number[] {
  const match = pattern.exec(text);
  expect(match, `no line matching ${pattern} in:\n${text}`).not.toBeNull();
  return match!.slice(1).map(Number);
}

const positive = (values: readonly number[]) => {
  for (const value of values) expect(value).toBeGreaterThan(0);
};

describe('the bench probes, at a tiny size', { timeout: 120_000 }, () => {
  it('run-start-cpu.ts --delegate: CPU per run of each repetition and their median', async () => {
    positive(numbers(await probe('run-start-cpu.ts', '--runs', '100', '--reps', '2', '--delegate'), /CPU per run, µs: (\d+) (\d+); median (\d+)/));
  });

  it('event-path-cpu.ts: CPU per event, the model alone, ours, and the bytes allocated per event', async () => {
    const out = await probe('event-path-cpu.ts', '--deltas', '300', '--reps', '1');
    const [total, model, ours] = numbers(out, /CPU per event ([\d.]+) µs \(reps [\d.]+\); model alone ([\d.]+) µs; ours ([\d.]+) µs/);
    positive([total!, model!]);
    expect(ours).toBeCloseTo(total! - model!, 1);
    positive(numbers(out, /allocated per event .*: (\d+) bytes/));
  });

  it('event-store-cpu.ts: nanoseconds per event', async () => {
    positive(numbers(await probe('event-store-cpu.ts', '--runs', '100', '--reps', '1'), /: ([\d.]+) ns per event/));
  });

  it('model-request-cpu.ts: CPU per request through rxharness and through a bare client', async () => {
    positive(numbers(await probe('model-request-cpu.ts', 'model', 'dist', '50'), /model dist: ([\d.]+) µs CPU\/request, ([\d.]+) µs\/delta/));
    positive(numbers(await probe('model-request-cpu.ts', 'bare', 'dist', '50'), /bare: ([\d.]+) µs CPU\/request, ([\d.]+) µs\/delta/));
  });

  it('tool-specs-cpu.ts: microseconds per toolSpecs() call and per estimate', async () => {
    positive(numbers(await probe('tool-specs-cpu.ts'), /toolSpecs\(\): ([\d.]+) µs\/call; request estimate: ([\d.]+) µs\/call/));
  });

  it('run-objects-cpu.ts: microseconds per RunEnd and per task start and finish', async () => {
    positive(numbers(await probe('run-objects-cpu.ts'), /: RunEnd ([\d.]+) µs; a task's start and finish ([\d.]+) µs/));
  });

  it('model-request-heap.ts: the heap a live request holds, by transport', async () => {
    for (const side of ['node-http', 'fetch']) {
      const { heapKiBPerRequest, requests } = JSON.parse(await probe('model-request-heap.ts', side, '20')) as { heapKiBPerRequest: string; requests: number };
      expect(requests).toBe(20);
      expect(Number(heapKiBPerRequest), side).toBeGreaterThan(0);
    }
  });

  it('run-tree-heap.ts and heap-summary.ts: a live run tree\'s heap, then its new objects charged to kinds', async () => {
    const { heapPerRunKiB, idle, peak } = JSON.parse(await probe('run-tree-heap.ts', '3')) as { heapPerRunKiB: number; idle: string; peak: string };
    try {
      expect(heapPerRunKiB).toBeGreaterThan(0);
      const summary = await probe('heap-summary.ts', idle, peak, '3');
      positive(numbers(summary, /new objects since idle: ([\d.]+) KiB\/run \(3 runs\)/));
    } finally {
      rmSync(dirname(idle), { recursive: true, force: true });
    }
  });
});
