import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { PermissionPolicy } from '../../src/permission/index.js';

// Arithmetic evaluates a variable's value as an expression (`x='PATH=1'; ((x))` sets PATH). A
// line whose values the checker can see are harmless (`x=1; x+=1`: "11") stays allowed with
// arithmetic on it; a value joined at run time (`z=$x$y`, with `x=PA`, `y=TH=1`) does not.

const policy = new PermissionPolicy({ rules: [{ tool: 'bash', action: 'allow', pattern: '*' }, { tool: 'bash', action: 'deny', pattern: 'rm *' }] });

/** Common lines whose values the line shows, or which evaluate none. */
const HARMLESS = [
  'x=1; x+=1; echo $((x))',
  'z=${v:-0}; echo $((z))',
  "eval 'echo $x'",
  "x='a; rm y'; eval 'echo $x'",
  'LESS="$LESS -R" git log',
  'LESS="-R ${LESS}" git log',
];

/** Lines that set PATH to 1 in bash and run `ls`, through a value no single word shows. */
const JOINED = [
  'x=PA; y=TH=1; z=$x$y; : $((z)); ls',
  'x=PA; y=TH=1; export z=$x$y; ((z)); ls',
  'x=PA; y=TH=1; for z in $x$y; do ((z)); done; ls',
  'x=PA; y=TH=1; : ${z:=$x$y}; ((z)); ls',
  'x=PA; y=TH=1; : $(($x$y)); ls',
  'x=PA; : $((${x}TH=1)); ls',
  'x=PA; y=TH=1; [[ $x$y -eq 1 ]]; ls',
  'x=PA; y=TH=1; let $x$y; ls',
  'x=PA; y=TH=1; set -- $x$y; : $(( $1 )); ls',
  'x=\\\\x50ATH=1; printf -v z -- "$x"; ((z)); ls',
  'x=PA; x+=TH=1; ((x)); ls',
  // echo may be a function defined on the line: its words are then its $1.
  'echo() { : $(( $1 )); }; k=PATH; echo "$k=1"; ls',
  // ...and bash keeps any command's last word in `$_`, which arithmetic reads as a name.
  'k=PATH; echo "$k=1" >/dev/null; ((_)); ls',
];

const dir = mkdtempSync(join(tmpdir(), 'rx-known-values-'));
mkdirSync(join(dir, '1'));
writeFileSync(join(dir, '1', 'ls'), '#!/bin/sh\n: > ran\n');
chmodSync(join(dir, '1', 'ls'), 0o755);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Runs `line` in bash; what it printed, and whether `ls` ran ./1/ls. */
function run(line: string): { readonly out: string; readonly ranOne: boolean } {
  rmSync(join(dir, 'ran'), { force: true });
  const result = spawnSync('bash', ['-c', line], { cwd: dir, encoding: 'utf8', timeout: 20_000 });
  return { out: result.stdout, ranOne: existsSync(join(dir, 'ran')) };
}

describe('values the line shows, inside arithmetic', () => {
  it.each(HARMLESS)('%j stays allowed', (line) => {
    expect(policy.evaluate('bash', line).action).toBe('allow');
  });

  it('bash gives them the values the checker sees: a number, or text eval does not run again', () => {
    expect(run('x=1; x+=1; echo $((x))').out).toBe('11\n');
    expect(run('unset v; z=${v:-0}; echo $((z))').out).toBe('0\n');
    expect(run('n=4; for k in a b; do echo "$k=$((n+1))"; done').out).toBe('a=5\nb=5\n');
    writeFileSync(join(dir, 'y'), '');
    expect(run("x='a; rm y'; eval 'echo $x'").out).toBe('a; rm y\n');
    expect(existsSync(join(dir, 'y'))).toBe(true);
    run('x=\'a; rm y\'; eval "echo $x"'); // the double-quoted spelling does run it
    expect(existsSync(join(dir, 'y'))).toBe(false);
  }, 60_000); // bash is started for each line: a loaded machine is slow, never wrong

  it.each(JOINED)('%j is unreadable under a deny rule', (line) => {
    expect(policy.evaluate('bash', line).action).toBe('deny');
  });

  it('each joined line does set PATH in bash (the table is honest)', () => {
    for (const line of JOINED) expect(run(line).ranOne, line).toBe(true);
  }, 60_000); // bash is started for each line: a loaded machine is slow, never wrong

  it('a joined echo word next to arithmetic is refused, even where it only prints: `$_` may hand it on', () => {
    expect(policy.evaluate('bash', 'for k in a b; do echo "$k=$((n+1))"; done').action).toBe('deny');
  });

  it('the spellings of eval and LESS that do run code stay denied', () => {
    for (const line of ['eval "echo $x"', 'eval echo $x', "eval 'echo $x' \"$y\"", 'LESS="$LESS !rm x" git log', "LESS+='!rm x' git log", 'LESS="${LESS,,}" git log', 'LESS="$LESS -k f" git log', "declare -n r=LESS; r='+!rm x'; git log"]) {
      expect(policy.evaluate('bash', line).action, line).toBe('deny');
    }
    // `${LESS,,}` makes a user's harmless -K the lesskey -k; a reference sets LESS through its name.
    expect(run("LESS=-FKX; LESS=\"${LESS,,}\"; echo \"$LESS\"").out).toBe('-fkx\n');
    expect(run("declare -n r=LESS; r='+!rm x'; echo \"$LESS\"").out).toBe('+!rm x\n');
  }, 60_000); // bash is started for each line: a loaded machine is slow, never wrong
});
