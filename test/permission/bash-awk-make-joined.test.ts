import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { PermissionPolicy, type PermissionRule } from '../../src/permission/index.js';
import { commandRuns } from '../support/system-requirement.js';

// An awk string with more joined to it was read as the whole name: `print > "out/" $1` and
// `print | "sort -o out/" $1` were allowed under `deny write src/**`, yet a data line
// `../src/pwn` makes them write src/pwn; gawk reads `x "cmd" | getline` as `(x "cmd")`.
// make reads a makefile from the line's input through a file descriptor's name
// (`make -f /dev/fd/0 <<< 'x:;rm x'`), as it does with `-f -`, under `deny bash rm *`.

const WRITES: PermissionRule[] = [
  { tool: 'bash', action: 'allow' },
  { tool: 'write', action: 'deny', pattern: 'src/**' },
];
const RUNS: PermissionRule[] = [
  { tool: 'bash', action: 'allow' },
  { tool: 'bash', action: 'deny', pattern: 'rm *' },
];

const AWK_ATTACKS = [
  `awk '{print | "sort -o out/" $1}' data.txt`,
  `awk '{print |& "sort -o out/" $1}' data.txt`,
  `awk '{print | "sort -o out/" "x" $1}' data.txt`,
  `awk '{printf "%s", $0 | "tee out/" $1}' data.txt`,
  `awk '{ $0 " out/x" | getline }' data.txt`,
  `awk '{ x = $1; x "cat" | getline line }' data.txt`,
  `awk '{ print > "out/" $1 ".txt" }' data.txt`,
  `awk '{ print >> "out/" $1 }' data.txt`,
  `awk '{ printf "%s\\n", $0 > "out/" $1 }' data.txt`,
  `awk '{ print > "out/"$1 }' data.txt`,
];

const AWK_PLAIN = [
  `awk '{print | "sort -o out/x"}' data.txt`,
  `awk '{print | "sort"; close("sort")}' data.txt`,
  `awk '{print | "sort" }' data.txt`,
  `awk '{print | "sort" # sorted\n}' data.txt`,
  `awk '{ "date" | getline d; print d }' data.txt`,
  `awk 'BEGIN { while (("ls out" | getline l) > 0) print l }'`,
  `awk '{ if (!seen) "date" | getline d; else "date" | getline e }' data.txt`,
  `awk '{ print > "out/x.txt" }' data.txt`,
  `awk '{ print >> "out/x.txt"; n++ }' data.txt`,
  `awk '{ print > "out/x.txt" # kept\n}' data.txt`,
  `awk '{ printf "%s", $1 > "out/x.txt" }' data.txt`,
  `awk '{ print "src/" $1 }' data.txt`,
];

const MAKE_ATTACKS = [
  "make -f /dev/fd/0 <<< 'x:;rm x'",
  "make -f /proc/self/fd/0 <<< 'x:;rm x'",
  "make -f /proc/1234/fd/0 <<< 'x:;rm x'",
  "make -f /proc/self/task/1/fd/0 <<< 'x:;rm x'",
  "make -f//dev//fd/./0 <<< 'x:;rm x'",
  "make --file=/dev/fd/0 <<< 'x:;rm x'",
  "make --makefile /proc/self/fd/0 <<< 'x:;rm x'",
  "make --mak=/dev/fd/3 3<<< 'x:;rm x'",
  "make --fi=/dev/stdin <<< 'x:;rm x'",
  "make -kf/dev/fd/0 <<< 'x:;rm x'",
  "make -C /dev/fd -f 0 <<< 'x:;rm x'",
  "make -C /dev -f stdin <<< 'x:;rm x'",
  "make -C /proc/self -f fd/0 <<< 'x:;rm x'",
];

const MAKE_PLAIN = [
  'make -f Makefile.dev build',
  'make --file=build/release.mk',
  'make -f build/v2/Makefile',
  'make -C sub -f ../common.mk',
  'make -f fd.mk',
  'make -f fd/Makefile',
];

let dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  dirs = [];
});

/** A folder holding out/, src/ and data.txt whose line steps from out/ into src/. */
function planted(): string {
  const dir = mkdtempSync(join(tmpdir(), 'rxharness-awk-joined-'));
  dirs.push(dir);
  mkdirSync(join(dir, 'out'));
  mkdirSync(join(dir, 'src'));
  writeFileSync(join(dir, 'data.txt'), '../src/pwn\n');
  return dir;
}

describe('awk strings with more joined to them', () => {
  const policy = new PermissionPolicy({ rules: WRITES });

  it.each(AWK_ATTACKS)('%j is denied under deny write src/**, read as any path', (line) => {
    expect(policy.evaluate('bash', line).action).toBe('deny');
  });

  it.each(AWK_PLAIN)('%j stays allowed', (line) => {
    expect(policy.evaluate('bash', line)).toMatchObject({ action: 'allow' });
  });

  it('still judges a whole quoted name by its text', () => {
    expect(policy.evaluate('bash', `awk '{ print > "src/a.ts" }' data.txt`).reason).toContain('"src/a.ts"');
    expect(policy.evaluate('bash', `awk '{ print | "sort -o src/a" }' data.txt`).reason).toContain('"src/a"');
  });

  it.runIf(commandRuns('awk', ['-W', 'version'], 'mawk'))('awk writes src/ through the joined field (the attacks are real)', () => {
    for (const [line, file] of [
      [`awk '{ print > "out/" $1 ".txt" }' data.txt`, 'src/pwn.txt'],
      [`awk '{print | "sort -o out/" $1}' data.txt`, 'src/pwn'],
    ] as const) {
      const dir = planted();
      spawnSync('bash', ['-c', line], { cwd: dir, timeout: 20_000 });
      expect(existsSync(join(dir, file)), line).toBe(true);
    }
  });
});

describe('make reading its makefile through a file descriptor', () => {
  const policy = new PermissionPolicy({ rules: RUNS });

  it.each(MAKE_ATTACKS)('%j is denied under deny rm *, naming the option', (line) => {
    const decision = policy.evaluate('bash', line);
    expect(decision.action).toBe('deny');
    expect(decision.reason).toContain('an option of make that runs a command');
  });

  it.each(MAKE_PLAIN)('%j stays allowed', (line) => {
    expect(policy.evaluate('bash', line)).toMatchObject({ action: 'allow' });
  });

  const hasMake = commandRuns('make', ['--version'], 'make');
  it.runIf(hasMake)('make runs the recipe it reads from /dev/fd/0 and /proc/self/fd/0 (the attacks are real)', () => {
    for (const line of ["make -f /dev/fd/0 x <<< 'x:;rm -f v'", "make -f /proc/self/fd/0 x <<< 'x:;rm -f v'"]) {
      const dir = planted();
      writeFileSync(join(dir, 'v'), 'keep');
      spawnSync('bash', ['-c', line], { cwd: dir, timeout: 20_000 });
      expect(existsSync(join(dir, 'v')), line).toBe(false);
    }
  });
});
