/**
 * Tells the sides of an interleaved benchmark apart in one CPU profile: each sample is
 * charged to the side whose run was measured when it was taken (the windows written by
 * `bench/client-cpu.ts ... --windows FILE`), and the self time of every function is printed
 * per side and per run, the largest differences first. Not part of the run:
 *
 * ```sh
 * node --import tsx bench/support/profile-by-side.ts <file>.cpuprofile <windows>.json [top]
 * ```
 *
 * Why: a profile of one side run alone misleads. V8 then optimizes, and sizes its young
 * generation, for that side only: `call()` alone measured 111 ms a run and the limit alone
 * 132 ms, the same two interleaved 105 ms and 98 ms.
 *
 * @module
 */
import { readFileSync } from 'node:fs';

/** One measured run: its side, and when it began and ended (µs, monotonic clock). */
export type SideWindow = [side: string, beginUs: number, endUs: number];

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
  startTime: number;
}

/** Self time (µs) by function, per side, summed over that side's windows. */
export function selfTimeBySide(profile: Profile, windows: readonly SideWindow[]): Map<string, Map<string, number>> {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const sorted = [...windows].sort((a, b) => a[1] - b[1]);
  const bySide = new Map<string, Map<string, number>>();
  let at = profile.startTime;
  let w = 0;
  profile.samples.forEach((id, i) => {
    at += profile.timeDeltas[i] ?? 0;
    while (w < sorted.length && sorted[w]![2] < at) w++;
    const window = sorted[w];
    if (!window || window[1] > at) return; // between measured runs
    const { functionName, url, lineNumber } = byId.get(id)!.callFrame;
    const key = `${functionName || '(anon)'} ${url.replace(/^file:\/\/.*?\/(node_modules|dist|bench|src)\//, '$1/')}:${lineNumber + 1}`;
    const fns = bySide.get(window[0]) ?? new Map<string, number>();
    fns.set(key, (fns.get(key) ?? 0) + (profile.timeDeltas[i] ?? 0));
    bySide.set(window[0], fns);
  });
  return bySide;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const [file, windowsFile, topArg] = process.argv.slice(2);
  if (!file || !windowsFile) throw new Error('usage: profile-by-side.ts <file>.cpuprofile <windows>.json [top]');
  const windows = JSON.parse(readFileSync(windowsFile, 'utf8')) as SideWindow[];
  const bySide = selfTimeBySide(JSON.parse(readFileSync(file, 'utf8')) as Profile, windows);
  const sides = [...bySide.keys()];
  const runs = new Map(sides.map((s) => [s, windows.filter((w) => w[0] === s).length]));
  const perRun = (side: string, key: string): number => (bySide.get(side)!.get(key) ?? 0) / 1000 / runs.get(side)!;
  const total = (side: string): number => [...bySide.get(side)!.values()].reduce((a, b) => a + b, 0) / 1000 / runs.get(side)!;
  const keys = [...new Set(sides.flatMap((s) => [...bySide.get(s)!.keys()]))];
  const spread = (key: string): number => Math.max(...sides.map((s) => perRun(s, key))) - Math.min(...sides.map((s) => perRun(s, key)));
  const cell = (n: number): string => n.toFixed(2).padStart(9);
  const lines = [`ms per run:${sides.map((s) => s.padStart(10)).join('')}`, `total      ${sides.map((s) => cell(total(s)).padStart(10)).join('')}`];
  for (const key of keys.sort((a, b) => spread(b) - spread(a)).slice(0, Number(topArg ?? 30))) {
    lines.push(`           ${sides.map((s) => cell(perRun(s, key)).padStart(10)).join('')}  ${key}`);
  }
  process.stdout.write(`${lines.join('\n')}\n`);
}
