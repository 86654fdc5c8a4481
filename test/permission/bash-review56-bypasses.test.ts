import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { PermissionPolicy } from '../../src/permission/index.js';

// Lines a review found allowed under `allow *` + `deny rm *` that real bash makes run `rm`,
// set PATH, or hand less options that run a command. Each table is proven against bash below.

const policy = new PermissionPolicy({ rules: [{ tool: 'bash', action: 'allow', pattern: '*' }, { tool: 'bash', action: 'deny', pattern: 'rm *' }] });

/** Lines that run `rm y` in bash. */
const RUN_RM = [
  // Inside `$((…))` and `$[…]` bash reads as in double quotes: a single quote hides nothing.
  ": $(( '$(rm y)' ))",
  "echo $(( '`rm y`' ))",
  "echo $[ '$(rm y)' ]",
  // `$_` is the previous command's last word: echo's words reach arithmetic through it.
  "echo 'a[$(rm y)]' >/dev/null; ((_))",
  "echo 'a[$(rm y)]' >/dev/null; : $((_))",
  "echo 'a[$(rm y)]' >/dev/null; z=${_:-0}; ((z))",
  // A default assignment sets its variable; `${#a[...]}` evaluates its subscript.
  'echo "${z:=a[\\$(rm y)]}" >/dev/null; ((z))',
  "a=(1); echo ${#a['b[$(rm y)]']}",
  // Function definitions after `)` or across a line continuation: echo is then a function.
  "case x in x)function echo { : $(( $1 )); };; esac; echo 'a[$(rm y)]'",
  "echo (\\\n) { : $(( $1 )); }; echo 'a[$(rm y)]'",
];

/** Lines that set PATH to 1 in bash and run `ls` (./1/ls). */
const SET_PATH = [
  'echo ${z=PATH=1}; ((z)); ls',
  'k=PATH; echo "$k=1" >/dev/null; ((_)); ls',
  'x=PA; y=TH=1; : $x$y; ((_)); ls',
  // `${v@P}` expands the `$x$y` quoted in v: a value joined at run time too.
  "x=PA; y=TH=1; v='$x$y'; : ${v@P}; ((_)); ls",
];

/** Lines that hand less (or make) options the rules cannot check: the fake program prints what it got. */
const OPTIONS = [
  ["LESS=('+!rm y'); LESS=\"$LESS -R\" git log", '+!rm y -R'],
  ["declare -a LESS=('+!rm y'); LESS=\"$LESS -R\" git log", '+!rm y -R'],
  ["MORE=('+!rm y'); MORE=\"$MORE -R\" more f", '+!rm y -R'],
  ["LESS=('+!rm y'); LESS=\"${LESS}\" less f", '+!rm y'],
  ["LESS=('+!rm y'); LESS=\"-R $LESS\" less f", '-R +!rm y'],
  ['declare -lx LESS; LESS="$LESS -KBIND"; less f', ' -kbind'],
  ['typeset -l LESS; LESS="$LESS -KBIND"; export LESS; less f', ' -kbind'],
  ['f() { local -lx LESS; LESS="$LESS -KBIND"; less f; }; f', ' -kbind'],
] as const;

const dir = mkdtempSync(join(tmpdir(), 'rx-review56-'));
mkdirSync(join(dir, '1'));
mkdirSync(join(dir, 'bin'));
writeFileSync(join(dir, '1', 'ls'), '#!/bin/sh\n: > ran\n');
for (const name of ['git', 'less', 'more']) writeFileSync(join(dir, 'bin', name), '#!/bin/sh\nprintf "%s|%s\\n" "$LESS" "$MORE"\n');
for (const file of ['1/ls', 'bin/git', 'bin/less', 'bin/more']) chmodSync(join(dir, file), 0o755);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Runs `line` in bash (fake git, less and more first on PATH, LESS and MORE unset); what it printed, whether `y` went, whether ./1/ls ran. */
function run(line: string): { readonly out: string; readonly removed: boolean; readonly ranOne: boolean } {
  writeFileSync(join(dir, 'y'), '');
  rmSync(join(dir, 'ran'), { force: true });
  const env: NodeJS.ProcessEnv = { ...process.env, PATH: `${join(dir, 'bin')}:${process.env.PATH ?? ''}` };
  delete env.LESS;
  delete env.MORE;
  const result = spawnSync('bash', ['-c', line], { cwd: dir, encoding: 'utf8', timeout: 20_000, env });
  return { out: result.stdout, removed: !existsSync(join(dir, 'y')), ranOne: existsSync(join(dir, 'ran')) };
}

describe('review 56: lines bash runs code through', () => {
  it.each([...RUN_RM, ...SET_PATH, ...OPTIONS.map(([line]) => line)])('%j is denied', (line) => {
    expect(policy.evaluate('bash', line).action).toBe('deny');
  });

  it('bash runs rm y in each (the table is honest)', () => {
    for (const line of RUN_RM) expect(run(line).removed, line).toBe(true);
  }, 60_000); // bash is started for each line: a loaded machine is slow, never wrong

  it('bash sets PATH in each and runs ./1/ls (the table is honest)', () => {
    for (const line of SET_PATH) expect(run(line).ranOne, line).toBe(true);
  }, 60_000); // bash is started for each line: a loaded machine is slow, never wrong

  it('bash hands less the options shown (the table is honest)', () => {
    for (const [line, options] of OPTIONS) {
      const [less, more] = run(line).out.replace(/\n$/, '').split('|');
      expect(line.includes('MORE') ? more : less, line).toBe(options);
    }
  }, 60_000); // bash is started for each line: a loaded machine is slow, never wrong

  it('a flood of "=~" in a test is read in time linear in the line (200k characters, within the test timeout)', () => {
    // Each blank after `=~` once tested the whole line read so far: about a minute for this line.
    const line = `[[ a ${' =~'.concat(' '.repeat(20)).repeat(8_700)} ]]; rm y`;
    expect(line.length).toBeGreaterThan(200_000);
    expect(policy.evaluate('bash', line).action).toBe('deny');
  });

  it('plain uses of LESS and declare stay allowed', () => {
    for (const line of ['LESS="$LESS -R" git log', 'declare -l name=X; echo "$name"', 'declare -x LESS; less f', 'a=(1 2); echo "${a[@]}"']) {
      expect(policy.evaluate('bash', line).action, line).toBe('allow');
    }
  });
});
