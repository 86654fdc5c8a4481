import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { PermissionPolicy } from '../../src/permission/index.js';
import { commandRuns } from '../support/system-requirement.js';

// Three ways a line ran what `deny rm *` or a write rule forbids, unasked under `allow *`:
// a Makefile written in a folder make enters by another spelling (`make -C ./sub`, `-C a -C b`),
// a variable exported for make's recipes (`export CC='rm -f v'; make`: make reads the
// environment, and a recipe's `$(CC) a.c` runs rm), and less's log file named in `$LESS`
// (`LESS='-o src/a.ts' git log`). Each attack below was run for real (GNU make 4.3, less 590).

const policy = new PermissionPolicy({ rules: [{ tool: 'bash', action: 'allow', pattern: '*' }, { tool: 'bash', action: 'deny', pattern: 'rm *' }] });
const writeRules = new PermissionPolicy({ rules: [{ tool: 'bash', action: 'allow', pattern: '*' }, { tool: 'write', action: 'deny', pattern: 'src/**' }] });

/** A makefile written where make, by its `-C`, runs. */
const MAKE_FOLDERS = [
  "echo 'x:;rm v' > sub/Makefile; make -C ./sub",
  "echo 'x:;rm v' > ./sub/Makefile; make --directory=./sub/",
  'echo x > sub/Makefile; make -C sub/../sub',
  'echo x > a/b/Makefile; make -C a -C b',
  'echo x > sub/Makefile; make -C /home/u/ws/sub',
  'echo x > sub/Makefile; make -C ../ws/sub',
  'echo x > sub/Makefile; make -C ~/ws/sub',
  'echo x > sub/build; make -C sub -f build',
];

/** [a line exporting a variable make's recipes may run, what the reason must say]. */
const EXPORTED: readonly (readonly [string, string])[] = [
  ["export CC='rm -f v'; make", '(for "rm -f v {}")'],
  ["CC='rm -f v'; export CC; make", '(for "rm -f v {}")'],
  ["export CC='rm -f v' && make all", '(for "rm -f v {}")'],
  ["declare -x CC='rm -f v'; make", '(for "rm -f v {}")'],
  ['export RM=rm; make clean', '(for "rm {}")'],
  ["make; export CC='rm -f v'", '(for "rm -f v {}")'],
  ["set -a; CC='rm -f v'; gmake", '(for "rm -f v {}")'],
  ["sh -c \"export CC='rm -f v'; make\"", '(for "rm -f v {}")'],
  ["export CC='cc; rm v'; make", 'a make variable holding shell syntax'],
  ['export CC=./evil; make', 'a program run from a file ("./evil")'],
];

/** Lines whose `$LESS` names a log file in src/, for whatever pages through less. */
const LESS_LOGS = [
  "echo x | LESS='-o src/a.ts' less",
  "LESS='-R -osrc/a.ts' git log",
  "export LESS='--log-file=src/a.ts'; git log",
  "LESS='-O src/a.ts'; export LESS; man ls",
  "script -qc \"echo x | LESS='-o src/a.ts' less -E\" /dev/null",
];

/** Ordinary lines that stay allowed: under deny rm *, and under deny write src/**. */
const ORDINARY = [
  'make -C sub',
  'echo x > notes.md; make -C ./sub',
  'echo x > sub/Makefile; make -C other',
  'echo x > out/log.txt; make -C /usr/src/x',
  'echo x > sub/Makefile; make -C .',
  "export CC='rm -f v'",
  'export CC=clang; make',
  'export CC=clang CXX=clang++; make -j4',
  "export CFLAGS='-O2 -g'; make",
  'export NODE_ENV=production && make build',
  'export DESTDIR=/tmp/stage; make install',
  'export CC; make',
  "export RM='rm -f'; npm test",
  'LESS=-R less x',
  "export LESS='-FRX'; git log",
  "LESS='-R -o out.log' less x",
  "LESS='-p src/a.ts' less x",
];

let dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  dirs = [];
});

describe('make, and less, reading what the line sets elsewhere', () => {
  it.each(MAKE_FOLDERS)('%j is denied: the makefile is in the folder make runs in', (line) => {
    const decision = policy.evaluate('bash', line);
    expect(decision.action).toBe('deny');
    expect(decision.reason).toContain('a write to a file make runs');
  });

  it.each(EXPORTED)('%j: the exported value is judged as the command a recipe may run', (line, why) => {
    const decision = policy.evaluate('bash', line);
    expect(decision.action).toBe('deny');
    expect(decision.reason).toContain(why);
  });

  it.each(LESS_LOGS)('%j is a write of src/a.ts', (line) => {
    const decision = writeRules.evaluate('bash', line);
    expect(decision.action).toBe('deny');
    expect(decision.reason).toContain('writes "src/a.ts"');
  });

  it('a log file in $LESS is a write of a file make runs', () => {
    expect(policy.evaluate('bash', "echo x | LESS='-o build.rs' less; cargo build").reason).toContain('a write to a file cargo runs ("build.rs")');
  });

  it.each(ORDINARY)('%j stays allowed', (line) => {
    expect(policy.evaluate('bash', line).action).toBe('allow');
    expect(writeRules.evaluate('bash', line).action).toBe('allow');
  });

  it('every sample is valid bash', () => {
    for (const line of [...MAKE_FOLDERS, ...EXPORTED.map(([line]) => line), ...LESS_LOGS, ...ORDINARY]) {
      expect(spawnSync('bash', ['-n', '-c', line]).status, line).toBe(0);
    }
  });

  it.runIf(commandRuns('make', ['--version'], 'make'))('make runs what these lines hand it (the attacks are real)', () => {
    const recipe = 'a.o:\n\t$(CC) a.c\n';
    const lines = [
      "mkdir -p sub; printf 'x:\\n\\trm -f ../v\\n' > sub/Makefile; make -C ./sub x",
      "mkdir -p a/b; printf 'x:\\n\\trm -f ../../v\\n' > a/b/Makefile; make -C a -C b x",
      "export CC='rm -f v'; make",
      "CC='rm -f v'; export CC; make",
      "set -a; CC='rm -f v'; make",
    ];
    for (const line of lines) {
      const dir = freshFolder();
      writeFileSync(join(dir, 'v'), 'keep');
      // The workspace's own Makefile, untouched by the line: its recipe runs `$(CC)`.
      writeFileSync(join(dir, 'Makefile'), recipe);
      spawnSync('bash', ['-c', line], { cwd: dir, timeout: 20_000 });
      expect(existsSync(join(dir, 'v')), line).toBe(false);
      expect(policy.evaluate('bash', line).action, line).toBe('deny');
    }
  });

  it.runIf(commandRuns('less', ['--version'], 'less') && commandRuns('script', ['--version'], 'bsdutils'))('less writes the log file $LESS names, and runs $LESSOPEN (the attacks are real)', () => {
    const dir = freshFolder();
    mkdirSync(join(dir, 'src'));
    // less keeps a log only on a terminal: `script` gives it one.
    const log = "script -qc \"echo x | LESS='-o src/a.ts' less -E\" /dev/null";
    spawnSync('bash', ['-c', log], { cwd: dir, timeout: 20_000, stdio: 'ignore' });
    expect(existsSync(join(dir, 'src/a.ts'))).toBe(true);
    expect(writeRules.evaluate('bash', log).action).toBe('deny');
    // LESSOPEN runs a command even without a terminal; the policy has long denied it (a change of LESSOPEN).
    writeFileSync(join(dir, 'v'), 'keep');
    writeFileSync(join(dir, 'in.txt'), 'x');
    const open = "LESSOPEN='|rm -f v; cat %s' less in.txt";
    spawnSync('bash', ['-c', open], { cwd: dir, timeout: 20_000, stdio: ['ignore', 'pipe', 'pipe'] });
    expect(existsSync(join(dir, 'v'))).toBe(false);
    expect(policy.evaluate('bash', open).action).toBe('deny');
  });
});

function freshFolder(): string {
  const dir = mkdtempSync(join(tmpdir(), 'rxharness-make-env-less-'));
  dirs.push(dir);
  return dir;
}
