import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { PermissionPolicy } from '../../src/permission/index.js';

// Lines review 57b found allowed under `allow *` + `deny rm *` that real bash makes run `rm y`,
// set PATH, or hand less an initial command. Each table is proven against bash below.

const policy = new PermissionPolicy({ rules: [{ tool: 'bash', action: 'allow', pattern: '*' }, { tool: 'bash', action: 'deny', pattern: 'rm *' }] });
const EVIL = "printf '#!/bin/sh\\nrm y\\n' > e; chmod +x e; ";
/** Whitespace JavaScript's `\s` (and the parser) reads as a blank, and bash as part of a word. */
const NOT_BLANKS = ['\u00a0', '\v', '\f', '\r', '\u3000', '\u2028', '\ufeff'];

/** Lines that run `rm y` in bash. */
const RUN_RM = [
  // A `#` after such a character is no comment to bash; `[[` and it are a command name, so `|| rm y` runs.
  ...NOT_BLANKS.flatMap((blank) => [`echo x${blank}# ; rm y`, `[[${blank}a || rm y ]]`, `echo x\\${blank}# ; rm y`]),
  // BASH_CMDS is bash's hash table, BASH_ALIASES its alias table.
  'BASH_CMDS[ls]=/bin/rm; ls y',
  "BASH_CMDS['ls']=/bin/rm; ls y",
  'BASH_CMDS+=([ls]=/bin/rm); ls y',
  "declare 'BASH_CMDS[ls]=/bin/rm'; ls y",
  "printf -v 'BASH_CMDS[ls]' /bin/rm; ls y",
  "shopt -s expand_aliases\nBASH_ALIASES[ls]='rm y'\nls",
  // The keyword option puts assignment words after the command name into its environment.
  "printf 'rm y\\n' > e; set -k; bash -c true BASH_ENV=e",
  "printf 'rm y\\n' > e; set -o keyword; bash -c true BASH_ENV=e",
  "printf 'rm y\\n' > e; set -eo keyword; bash -c true BASH_ENV=e",
  "printf 'rm y\\n' > e; shopt -so keyword; bash -c true BASH_ENV=e",
  "printf 'rm y\\n' > e; o=-k; set $o; bash -c true BASH_ENV=e",
  // ...whatever the word that turns it on expands from: a variable, a glob, braces, a tilde, an extglob.
  "printf 'rm y\\n' > e; o=k; set \"-$o\"; bash -c true BASH_ENV=e",
  "printf 'rm y\\n' > e; o=-k; set ${o}; bash -c true BASH_ENV=e",
  "printf 'rm y\\n' > e; o=-k; bash \"$o\" -c 'bash -c true BASH_ENV=e'",
  "printf 'rm y\\n' > e; : > ./-k; set [-]*; bash -c true BASH_ENV=e",
  "printf 'rm y\\n' > e; set {-k,x}; bash -c true BASH_ENV=e",
  "printf 'rm y\\n' > e; OLDPWD=-k; set ~-; bash -c true BASH_ENV=e",
  "printf 'rm y\\n' > e; PWD=-k; set ~+; bash -c true BASH_ENV=e",
  "printf 'rm y\\n' > e; OLDPWD=keyword; set -o ~-; bash -c true BASH_ENV=e",
  "printf 'rm y\\n' > e; shopt -s extglob\n: > ./-k; set @(-k); bash -c true BASH_ENV=e",
  "printf 'rm y\\n' > e; shopt -s extglob\n: > ./-k; set +(-k); bash -c true BASH_ENV=e",
  // flock -c and script -c run "$SHELL -c cmd".
  `${EVIL}SHELL=./e flock f -c true`,
  `${EVIL}SHELL=./e script -qc true /dev/null`,
  `${EVIL}export SHELL=$PWD/e; flock f -c true`,
  // ZIPOPT carries zip's options, `-TT cmd` among them.
  `${EVIL}ZIPOPT='-T -TT ./e' zip -q a.zip e`,
  // ninja runs build.ninja's commands, or its -f file's.
  "printf 'rule r\\n  command = rm y\\nbuild x: r\\n' > build.ninja; ninja",
  "printf 'rule r\\n  command = rm y\\nbuild x: r\\n' > rules.txt; ninja -f rules.txt",
];

/** Lines that set PATH to 1 for a child and run `ls` (./1/ls). */
const SET_PATH = ['set -k; /bin/bash -c ls PATH=1', 'a=([PATH=1]=x); ls'];

/** Lines that hand less (here: a fake git printing $LESS) an initial command. */
const OPTIONS = ["set -k; git log LESS='+!rm y'", "set -ek; git log LESS='+!rm y'", `bash -k -c "git log LESS='+!rm y'"`];

const dir = mkdtempSync(join(tmpdir(), 'rx-review57b-'));
mkdirSync(join(dir, '1'));
mkdirSync(join(dir, 'bin'));
writeFileSync(join(dir, '1', 'ls'), '#!/bin/sh\n: > ran\n');
writeFileSync(join(dir, 'bin', 'git'), '#!/bin/sh\nprintf "%s\\n" "$LESS"\n');
for (const file of ['1/ls', 'bin/git']) chmodSync(join(dir, file), 0o755);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Runs `line` in bash (a fake git first on PATH; LESS and SHELL unset): what it printed, whether `y` went, whether ./1/ls ran. */
function run(line: string, cwd = dir, fakes = true): { readonly out: string; readonly removed: boolean; readonly ranOne: boolean } {
  writeFileSync(join(cwd, 'y'), '');
  rmSync(join(dir, 'ran'), { force: true });
  const env: NodeJS.ProcessEnv = { ...process.env, PATH: fakes ? `${join(dir, 'bin')}:${process.env.PATH ?? ''}` : (process.env.PATH ?? '') };
  for (const name of ['LESS', 'SHELL', 'EDITOR', 'VISUAL', 'GIT_EDITOR', 'ZIPOPT']) delete env[name];
  Object.assign(env, { GIT_AUTHOR_NAME: 'a', GIT_AUTHOR_EMAIL: 'b', GIT_COMMITTER_NAME: 'a', GIT_COMMITTER_EMAIL: 'b' });
  const result = spawnSync('bash', ['-c', line], { cwd, encoding: 'utf8', timeout: 20_000, env, input: '' });
  return { out: result.stdout, removed: !existsSync(join(cwd, 'y')), ranOne: existsSync(join(dir, 'ran')) };
}

describe('review 57b: lines bash runs code through', () => {
  it.each([...RUN_RM, ...SET_PATH, ...OPTIONS])('%j is denied', (line) => {
    expect(policy.evaluate('bash', line).action).toBe('deny');
  });

  it('bash runs rm y in each (the table is honest)', () => {
    for (const line of RUN_RM) expect(run(line).removed, line).toBe(true);
  }, 120_000);

  it('bash sets PATH for the child in each and runs ./1/ls (the table is honest)', () => {
    for (const line of SET_PATH) expect(run(line).ranOne, line).toBe(true);
  }, 60_000);

  it('bash hands less the initial command (the table is honest)', () => {
    for (const line of OPTIONS) expect(run(line).out, line).toContain('+!rm y');
  }, 60_000);
});

describe('review 57b: VIMINIT reaches the vi that git commit starts', () => {
  const line = `VIMINIT='call system("rm y")|qa!' git commit --allow-empty -q`;
  it('is denied, as are the other start-ups of vim', () => {
    for (const set of [line, "EXINIT='!rm y' git commit -q", 'VIMRUNTIME=. git commit -q', 'export VIM=.; git commit -q']) {
      expect(policy.evaluate('bash', set).action, set).toBe('deny');
    }
  });
  it('real git and vim run rm y (the case is honest)', () => {
    const repo = join(dir, 'repo');
    mkdirSync(repo);
    spawnSync('git', ['init', '-q', '.'], { cwd: repo });
    spawnSync('git', ['-c', 'user.name=a', '-c', 'user.email=b', 'commit', '-q', '--allow-empty', '-m', 'x'], { cwd: repo });
    expect(run(line, repo, false).removed).toBe(true);
  }, 60_000);
});

describe('review 57b: hostile lines', () => {
  it('300,000 characters of "ln -s x " are judged within the test timeout (each operand was matched against every executed-file pattern by a walk)', () => {
    expect(policy.evaluate('bash', 'ln -s x '.repeat(37_500)).action).toBe('allow');
  }, 25_000);

  it('6,667 nested "$( are judged without a throw (each level was two calls deep)', () => {
    expect(policy.evaluate('bash', '"$('.repeat(6_667)).action).toBe('deny');
  });
});

describe('review 57b: ordinary lines stay allowed', () => {
  it.each([
    'm=([a]=1 [b]=2); echo "${m[a]}"',
    'a=([0]=x [1]=y); echo "${a[1]}"',
    'declare -A m=([k]=v); echo "${m[k]}"',
    'a=(rm y); echo "${a[@]}"',
    "echo 'a\u00a0b' \"c\u3000d\" $'\\xa0'",
    'set -euo pipefail; set -- a -k; echo "$@"',
    "bash -c 'echo hi' -k",
    'printf "%s\\n" x > build.txt; ninja --version',
    'echo "$(echo "$(date)")"',
    // A run-time word that cannot start with - or + is an operand, which ends the options: no -k.
    'bash -c "echo $HOME"',
    'sh -c "echo $1" _ a',
    "find . -name '*.ts' -exec sh -c \"wc -l $PWD/x\" \\;",
    'o=-k; set x$o; echo "$@"',
    'o=-k; set -- $o; echo "$@"',
    'set ~root; echo "$1"',
    // The -c string is no command name, where xargs or a wrapper runs the shell: its $0 and $1 are what xargs appends.
    "find . -exec sh -c 'echo \"$1\"' _ {} \\;",
    "ls | xargs -n1 sh -c 'echo \"$0\"'",
    "timeout 5 sh -c 'echo \"$1\"' _ a",
    "printf '%s\\n' a b | xargs -I{} echo {}",
    "find . -name '*.ts' -print0 | xargs -0 wc -l",
  ])('%j is allowed', (line) => {
    expect(policy.evaluate('bash', line).action).toBe('allow');
  });

  it('the array elements with a substitution are still judged', () => {
    expect(policy.evaluate('bash', 'a=([0]=$(rm y))').action).toBe('deny');
    expect(policy.evaluate('bash', 'a=(x) rm y').action).toBe('deny');
  });
});
