import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { PermissionPolicy, type PermissionRule } from '../../src/permission/index.js';
import { own } from '../support/collect-events.js';
import { runHostileCalls, tempWorkspace } from './tool-calls-over-http.js';
import { commandRuns } from '../support/system-requirement.js';

// make and less run commands given on their line: `make --eval='x:;rm v' x` (a recipe),
// `echo ... | make -f -`, `make SHELL=...`, `less '+!rm v' f` (an initial command that runs a
// shell), a lesskey file, `LESS='+!rm v'`. Under `allow make *` / `allow less *` and `deny rm *`
// they ran rm unasked; now such a line is unreadable, and denied naming what it holds.

const PROGRAMS = ['make', 'less', 'more', 'sftp', 'git', 'env', 'timeout', 'nice', 'nohup', 'stdbuf', 'watch', 'flock', 'script', 'xargs', 'echo'];
const RULES: PermissionRule[] = [
  ...PROGRAMS.map((program): PermissionRule => ({ tool: 'bash', action: 'allow', pattern: `${program} *` })),
  { tool: 'bash', action: 'allow', pattern: 'make' },
  { tool: 'bash', action: 'allow', pattern: 'nproc' },
  { tool: 'bash', action: 'deny', pattern: 'rm *' },
];

/** [the line, what the reason must say]. */
const ATTACKS: readonly (readonly [string, string])[] = [
  ["make --eval='x:;rm -rf v' x", '("make --eval=x:;rm -rf v")'],
  ["make --eval 'x:;rm v' x", '("make --eval x:;rm v")'],
  ["make --ev='x:;rm v' x", 'an option of make that runs a command'],
  ["make -E 'x:;rm v' x", '("make -E x:;rm v")'],
  ["make -kE'x:;rm v' x", '("make -kEx:;rm v")'],
  ["echo 'x:;rm v' | make -f - x", '("make -f -")'],
  ["echo 'x:;rm v' | make --file=/dev/stdin x", 'an option of make that runs a command'],
  ['make SHELL=./evil.sh x', '("make SHELL=./evil.sh")'],
  ["make .SHELLFLAGS='-c rm v;' x", 'a setting of make that chooses or adds the commands it runs'],
  ["make MAKEFLAGS='--eval=x:;rm v' x", 'a setting of make'],
  ["MAKEFLAGS='--eval=x:;rm v' make x", 'a change of MAKEFLAGS'],
  ["O='--eval=x:;rm v'; make $O x", '("$O"), which may be an option of make'],
  ["gmake -E 'x:;rm v' x", 'an option of gmake'],
  ["less '+!rm v' f", '("less +!rm v")'],
  ["less f '+|rm v'", '("less +|rm v")'],
  ["less '++!rm v' f", 'an initial command of less'],
  ["less $'+/x\\n!rm v\\n' f", 'an initial command of less'],
  ["more '+!rm v' f", '("more +!rm v")'],
  ['less -k keys f', '("less -k keys")'],
  ['less --lesskey-src=keys f', 'an option of less that runs a command'],
  ["LESS='+!rm v' less f", 'a change of LESS'],
  ["export LESS='-R +!rm v'", 'a change of LESS'],
  ['LESSKEY=keys less f', 'a change of LESSKEY'],
  ["LESSOPEN='|rm v %s' less f", 'a change of LESSOPEN'],
  ['less $F', '("$F"), which may be an option of less'],
];

/** Programs already read before: their hidden rm is denied (a guard, not a mend). */
const ALREADY_READ = [
  'sftp -b - host',
  'sftp -b cmds host',
  "git -c core.pager='rm v' log",
  "env -S 'rm v'",
  'timeout 5 rm v',
  'nice -n 5 rm v',
  'nohup rm v',
  'stdbuf -oL rm v',
  "watch -n 1 'rm v'",
  'flock f rm v',
  "flock f -c 'rm v'",
  "script -qc 'rm v' /dev/null",
  'echo v | xargs rm',
];

/** Ordinary uses, which must stay allowed under the same rules. */
const ORDINARY = [
  'make',
  'make all',
  'make -j4 test',
  'make -j$(nproc) test',
  'make -C sub test',
  'make -f Makefile.dev build',
  'make --file=build.mk',
  'make -k -s check',
  'make CFLAGS=-O2 all',
  'less README.md',
  'less -R log.txt',
  'less +G log.txt',
  'less +F log.txt',
  'less +/error log.txt',
  'less -p error log.txt',
  'less -- +weird-name',
  'more +10 README.md',
  'sftp host',
  'sftp -P 2222 host:file',
];

let dirs: string[] = [];
let cleanup: (() => Promise<void>) | undefined;
afterEach(async () => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  dirs = [];
  await cleanup?.();
  cleanup = undefined;
});

describe('make and less running commands from their line', () => {
  const policy = new PermissionPolicy({ rules: RULES });

  it.each(ATTACKS)('%j is denied under allow * and deny rm *, naming what runs', (line, why) => {
    const decision = policy.evaluate('bash', line);
    expect(decision.action).toBe('deny');
    expect(decision.reason).toContain(why);
  });

  it.each(ALREADY_READ)('%j is denied (read before)', (line) => {
    expect(policy.evaluate('bash', line).action).toBe('deny');
  });

  it.each(ORDINARY)('%j stays allowed', (line) => {
    expect(policy.evaluate('bash', line)).toMatchObject({ action: 'allow' });
  });

  it('asks (not allows) under allow make * alone', () => {
    const allowMake = new PermissionPolicy({ rules: [RULES[0]!] });
    expect(allowMake.evaluate('bash', "make --eval='x:;rm v' x").action).toBe('ask');
    expect(allowMake.evaluate('bash', 'make all').action).toBe('allow');
  });

  it.runIf(commandRuns('make', ['--version'], 'make'))('make runs the recipe of --eval, -E and -f - (the attacks are real)', () => {
    for (const line of ["make --eval='x:;rm -f v' x", "make -E 'x:;rm -f v' x", "printf 'x:\\n\\trm -f v\\n' | make -f - x"]) {
      const dir = mkdtempSync(join(tmpdir(), 'rxharness-make-runs-'));
      dirs.push(dir);
      writeFileSync(join(dir, 'v'), 'keep');
      spawnSync('bash', ['-c', line], { cwd: dir, timeout: 20_000 });
      expect(existsSync(join(dir, 'v')), line).toBe(false);
    }
  });

  it('is refused in a real run before make runs anything, and the file is kept', async () => {
    const ws = await tempWorkspace('rxharness-make-runs-');
    cleanup = ws.cleanup;
    writeFileSync(join(ws.dir, 'victim'), 'keep me');
    const command = "make --eval='x:;rm -f victim' x";
    const events = await runHostileCalls(ws.dir, [{ name: 'bash', arguments: { command } }], { permissionRules: RULES });
    expect(own(events, 'ToolCallEnd').map((e) => e.error)).toEqual([
      'Permission denied: denied: the command has an option of make that runs a command ' +
        '("make --eval=x:;rm -f victim"), so the bash deny rules cannot check it',
    ]);
    expect(existsSync(join(ws.dir, 'victim'))).toBe(true);
  });
});
