import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { PermissionPolicy } from '../../src/permission/index.js';

// Lines review 57f found allowed under `allow *` + `deny rm *` that real bash makes run `rm y`.
// Each table is proven against bash below.

const policy = new PermissionPolicy({ rules: [{ tool: 'bash', action: 'allow', pattern: '*' }, { tool: 'bash', action: 'deny', pattern: 'rm *' }] });

/** `for NAME do CMD` (no `;` before `do`): the loop body's first command shares the header's piece. */
const LOOP_BODY = [
  'f() { for a do rm y; done; }; f x',
  'set -- a; for f do rm y; done',
  'set -- a; select f do rm y; break; done <<< 1',
  'set -- a; for f do command rm y; done',
];

/** xargs placeholders spelt as its getopt reads them: grouped, attached, repeated (the last wins), after long options taking the next word. */
const PLACEHOLDER = [
  "echo 'rm y' | xargs -iQ sh -c Q",
  "echo 'rm y' | xargs -rI Q sh -c Q",
  "echo 'rm y' | xargs -0rI Q sh -c Q",
  "echo 'rm y' | xargs -tIQ sh -c Q",
  "echo 'rm y' | xargs -I A -I Q sh -c Q",
  "echo 'rm y' | xargs -i -I Q sh -c Q",
  "echo 'rm y' | xargs --max-args 1 -I Q sh -c Q",
  "echo 'rm y' | xargs --delimiter '\\n' -I Q sh -c Q",
  "echo 'rm y' | xargs --max-procs 2 -I Q sh -c Q",
  "echo 'rm y' | timeout 5 xargs -rI Q sh -c Q",
];

/** A command name xargs or find fill in, past a wrapper or first in -exec's command (tools/rm links to rm). */
const FILLED_NAME = [
  'echo rm y | xargs env',
  'echo rm y | xargs nice',
  'echo rm y | xargs timeout 5',
  'echo rm y | xargs stdbuf -o0',
  'echo rm y | xargs xargs',
  'echo rm | xargs -I Q env Q y',
  'echo rm | xargs -I{} nice {} y',
  'find tools -name rm -exec {} y \\;',
  'find tools -name rm -exec env {} y \\;',
  'find tools -name rm -execdir {} "$PWD/y" \\;',
];

const dir = mkdtempSync(join(tmpdir(), 'rx-review57f-'));
mkdirSync(join(dir, 'tools'));
symlinkSync(spawnSync('bash', ['-c', 'command -v rm'], { encoding: 'utf8' }).stdout.trim(), join(dir, 'tools', 'rm'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Runs `line` in bash in the sandbox: whether `y` went. */
function removes(line: string): boolean {
  writeFileSync(join(dir, 'y'), '');
  spawnSync('bash', ['-c', line], { cwd: dir, encoding: 'utf8', timeout: 20_000, input: '' });
  return !existsSync(join(dir, 'y'));
}

describe('review 57f: lines bash runs rm y through', () => {
  it.each([...LOOP_BODY, ...PLACEHOLDER, ...FILLED_NAME])('%j is denied', (line) => {
    expect(policy.evaluate('bash', line).action).toBe('deny');
  });

  it('bash runs rm y in each (the tables are honest)', () => {
    for (const line of [...LOOP_BODY, ...PLACEHOLDER, ...FILLED_NAME]) expect(removes(line), line).toBe(true);
  }, 120_000);

  it('an xargs option not understood hides where its command starts', () => {
    expect(policy.evaluate('bash', 'ls | xargs --frobnicate x echo').action).toBe('deny');
  });
});

describe('review 57f: ordinary lines stay allowed', () => {
  it.each([
    'ls | xargs grep foo',
    "find . -name '*.ts' -exec grep -l x {} +",
    "printf '%s\\n' a | xargs -I{} echo {}",
    "ls | xargs -n1 sh -c 'echo \"$0\"'",
    'ls | xargs -P4 -n1 timeout 30 curl -sO',
    'ls | xargs sudo chmod +x',
    'ls | xargs -I{} timeout 5 cp {} d',
    "find . -name '*.log' -exec nice -n 5 gzip {} \\;",
    'ls | xargs --max-args 2 --no-run-if-empty echo',
    'for f in a b; do echo "$f"; done',
    'set -- a; for f do echo "$f"; done',
  ])('%j is allowed', (line) => {
    expect(policy.evaluate('bash', line).action).toBe('allow');
  });
});
