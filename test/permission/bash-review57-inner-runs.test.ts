import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { PermissionPolicy } from '../../src/permission/index.js';

// Lines a review found allowed under `allow *` + `deny rm *` whose commands run other commands
// (`jobs -x`, a `-c` string xargs or find fill in, compgen, fc, GTFOBins programs). Each table
// is proven against real bash below.

const policy = new PermissionPolicy({ rules: [{ tool: 'bash', action: 'allow', pattern: '*' }, { tool: 'bash', action: 'deny', pattern: 'rm *' }] });

/** Lines that run `rm y` in bash with no program but bash's own and coreutils. */
const RUN_RM = [
  // `jobs -x` runs its operands as a command.
  'jobs -x rm y',
  'sleep 0 & jobs -x rm y %1',
  // A command string that xargs or find fill in when they run: missing (xargs appends), `{}`, the -I placeholder.
  `echo "'rm y'" | xargs sh -c`,
  `echo "'rm y'" | xargs bash -c`,
  "echo 'rm y' | xargs -I{} sh -c {}",
  "echo 'rm y' | xargs -I% sh -c %",
  "printf 'rm y' | xargs -0 sh -c",
  "echo 'rm y' | xargs -I{} flock f -c {}",
  "echo 'rm y' | xargs -I{} script -qc {} /dev/null",
  "echo 'rm y' | xargs -d '\\n' env -S",
  "touch 'rm y'; find 'rm y' -exec sh -c {} \\;",
  // ...also where another wrapper runs xargs.
  "echo 'rm y' | timeout 5 xargs -I{} sh -c {}",
  "echo 'rm y' | nice xargs -I% flock f -c %",
  // compgen runs -C's command, and expands -W's list (substitutions included) even in single quotes.
  "compgen -C 'rm y' x",
  "compgen -W '$(rm y)' x",
  "compgen -W '`rm y`' x",
  "compgen -W'$(rm y)' x",
  // fc runs history entries; history -s / -r put them there; `set -o history` lets `!` expansion build commands.
  "history -s 'rm y'; fc -s",
  "history -s x; fc -e 'rm y'",
  "printf 'rm y\\n' > h; history -r h; fc -s",
  "set -o history\nhistory -s 'rm y'\nfc -s rm",
  'set -o history\nset -H\necho rm y >/dev/null\n!!:1-2',
];

/** GTFOBins programs that run `rm y`, with the program each needs: proven where it is installed. */
const PROGRAMS = [
  ['cmake', 'cmake -E env rm y'],
  ['cmake', 'cmake -E chdir . rm y'],
  ['capsh', "capsh -- -c 'rm y'"],
  ['ed', "echo '!rm y' | ed -s"],
  ['sqlite3', "sqlite3 :memory: '.system rm y'"],
  ['tmux', "tmux -S ./ts new-session -d 'rm y'; sleep 1"],
] as const;

/** Ordinary lines that must stay allowed. */
const ORDINARY = [
  'git status',
  'npm test',
  'ls | xargs grep foo',
  "find . -name '*.ts' -exec grep -l x {} +",
  "git ls-files | xargs -d '\\n' grep -n TODO",
  "find . -name '*.sh' -exec bash -c 'echo hi' \\;",
  "sh -c 'find . -exec grep x {} +'",
  'jobs -l',
  'fc -l',
  'fc -ln -10',
  'history',
  'history -c',
  "compgen -W 'a b' a",
  'compgen -c git',
  'cmake -S . -B build',
  'cmake -E copy a b',
  'capsh --print',
  'tmux ls',
  'sqlite3 --version',
];

const dir = mkdtempSync(join(tmpdir(), 'rx-review57-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Runs `line` in bash in a fresh copy of `y`; whether `y` went. */
function removes(line: string): boolean {
  writeFileSync(join(dir, 'y'), '');
  rmSync(join(dir, 'rm y'), { force: true });
  spawnSync('bash', ['-c', line], { cwd: dir, encoding: 'utf8', timeout: 20_000, input: '' });
  return !existsSync(join(dir, 'y'));
}

function installed(program: string): boolean {
  return spawnSync('bash', ['-c', `command -v ${program}`]).status === 0;
}

describe('review 57: commands that run other commands', () => {
  it.each([...RUN_RM, ...PROGRAMS.map(([, line]) => line)])('%j is denied', (line) => {
    expect(policy.evaluate('bash', line).action).toBe('deny');
  });

  it('bash runs rm y in each (the table is honest)', () => {
    for (const line of RUN_RM) expect(removes(line), line).toBe(true);
  }, 120_000); // bash is started for each line: a loaded machine is slow, never wrong

  it('each program runs rm y where it is installed (the table is honest)', () => {
    for (const [program, line] of PROGRAMS) if (installed(program)) expect(removes(line), line).toBe(true);
  }, 120_000);

  it.each(ORDINARY)('%j stays allowed', (line) => {
    expect(policy.evaluate('bash', line).action).toBe('allow');
  });

  it('find -exec nested as deep as the line is long is judged unreadable, without a throw', () => {
    // Once each `-exec` was read inside the last, unbounded: seconds, then a RangeError.
    for (const unit of ['find . -exec ', 'sudo find . -exec ', 'npx find . -exec xargs ']) {
      const decision = policy.evaluate('bash', unit.repeat(Math.ceil(20_000 / unit.length)));
      expect(decision.action, unit).toBe('deny');
    }
  });

  it('find -exec nested beyond the limit inside a wrapper\'s quiet command line is still unreadable', () => {
    // A wrapper's word with spaces is read quietly: what it cannot read flags nothing, but lost commands must.
    const line = `timeout 5 '${'find . -exec '.repeat(12)}echo'`;
    expect(policy.evaluate('bash', line).action).toBe('deny');
    expect(policy.evaluate('bash', `timeout 5 '${'find . -exec '.repeat(3)}echo'`).action).toBe('allow');
  });
});
