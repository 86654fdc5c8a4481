import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { PermissionPolicy, type PermissionRule } from '../../src/permission/index.js';

// `(( x > y ))` and `[[ a > b && c > d ]]` compare: bash opens no file. They were read as
// redirections, so under `deny write` (or any write rule naming the path) they were denied.
// Only the reserved `[[` (unquoted, where a command starts) and a real arithmetic `((`
// compare: the attacks below use a look-alike that bash runs as commands, and must still be judged.

const WRITE_DENIED: PermissionRule[] = [{ tool: 'bash', action: 'allow' }, { tool: 'write', action: 'deny' }];
const RM_DENIED: PermissionRule[] = [{ tool: 'bash', action: 'allow' }, { tool: 'bash', action: 'deny', pattern: 'rm *' }];

/** Lines that compare, shift or test: bash writes no file for them. */
const COMPARISONS = [
  '(( 2 > 1 ))',
  '((2>1))',
  '(( 1 < 2 )) && echo yes',
  'if (( 3 > 2 )); then echo big; fi',
  'for ((i=0; i>-1 && i<2; i++)); do echo $i; done',
  '(( x = 1 << 2 ))',
  '[[ b > a ]]',
  '[[ b > a && d > c ]]',
  '[[ a > b || d > c ]] && echo y',
  '[[ ( b > a ) ]]',
  'if [[ b > a ]]; then echo y; fi',
  'while [[ b < a ]]; do :; done',
  '! [[ a > b ]]',
  '{ [[ b > a ]]; }',
  'true; [[ b >a ]] || echo no',
];

/** [line, the file bash writes]: the `>` is outside the comparison, or the `[[` is no reserved word. */
const WRITES = [
  ['(( 2 > 1 )) > out', 'out'],
  ['[[ a ]] > out', 'out'],
  ['x=1 [[ a > out ]]', 'out'],
  ['echo if [[ a > out ]]', 'out'],
  ["'[[' a > out ']]'", 'out'],
  ['\\[[ a > out ]]', 'out'],
] as const;

/** Lines that run `rm x` in bash although they look like a test or arithmetic. */
const ATTACKS = [
  '(( $(rm -rf x) ))',
  '(( 1 > `rm x` ))',
  '[[ $(rm x) ]]',
  '[[ $(rm x) > b ]]',
  "'[[' a || rm x ']]'",
  '"[[" a || rm x ]]',
  '\\[[ a || rm x ]]',
  'echo if [[ a && rm x ]]',
  'x=(a) [[ a || rm x ]]',
  'case "[[" in a | [[ ) rm x;; esac',
  'case b in a) ;; [[ | b ) rm x;; esac',
  '((rm x) )',
  '((rm x #)\n))', // from a script file bash runs it; `bash -c` refuses it
];

let dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  dirs = [];
});

/** Runs `line` as a bash script in a fresh folder holding the file `x`; returns the folder's files after. */
function runInBash(line: string): string[] {
  const dir = mkdtempSync(join(tmpdir(), 'rxharness-comparisons-'));
  const script = mkdtempSync(join(tmpdir(), 'rxharness-comparisons-script-'));
  dirs.push(dir, script);
  writeFileSync(join(dir, 'x'), 'keep');
  writeFileSync(join(script, 's.sh'), `${line}\n`);
  spawnSync('bash', [join(script, 's.sh')], { cwd: dir, encoding: 'utf8', timeout: 20_000 });
  return readdirSync(dir).sort();
}

describe('comparisons in (( )) and [[ ]]', () => {
  const writeDenied = new PermissionPolicy({ rules: WRITE_DENIED });

  it.each(COMPARISONS)('%j is allowed under deny write', (line) => {
    expect(writeDenied.evaluate('bash', line)).toMatchObject({ action: 'allow' });
  });

  it.each(WRITES)('%j is still denied under deny write, naming %s', (line, path) => {
    const decision = writeDenied.evaluate('bash', line);
    expect(decision.action).toBe('deny');
    expect(decision.reason).toContain(`"${path}"`);
  });

  it('matches bash: the comparisons write no file, the other lines do (the tables are honest)', () => {
    for (const line of COMPARISONS) expect(runInBash(line), line).toEqual(['x']);
    for (const [line, path] of WRITES) expect(runInBash(line), line).toContain(path);
  });
});

describe('look-alikes of a test or arithmetic that run commands', () => {
  const rmDenied = new PermissionPolicy({ rules: RM_DENIED });

  it.each(ATTACKS)('%j is denied under deny rm *', (line) => {
    expect(rmDenied.evaluate('bash', line).action).toBe('deny');
  });

  it('each really runs rm x in bash (the table is honest)', () => {
    for (const line of ATTACKS) expect(runInBash(line), line).not.toContain('x');
  });

  it('reads deeply nested arithmetic without running out of stack', () => {
    const nested = `echo ${'$(('.repeat(3000)}1${'))'.repeat(3000)}`;
    expect(() => rmDenied.evaluate('bash', nested)).not.toThrow();
    expect(rmDenied.evaluate('bash', `${'$(('.repeat(3000)}$(rm x)${'))'.repeat(3000)}`).action).toBe('deny');
    expect(rmDenied.evaluate('bash', `${'(( '.repeat(5000)}; rm x`).action).toBe('deny');
  });
});
