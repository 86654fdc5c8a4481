import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { PermissionPolicy } from '../../src/permission/index.js';

// What xargs reads and appends to its command is any text, an option too: `echo -delete |
// xargs find .` deletes. It is judged as a word only known when the line runs (as `$x` is),
// so the programs whose options run commands or write files are judged as with an unknown
// option there; programs whose options do neither keep being allowed.

const denyRm = new PermissionPolicy({ rules: [{ tool: 'bash', action: 'allow', pattern: '*' }, { tool: 'bash', action: 'deny', pattern: 'rm *' }] });
const denySrc = new PermissionPolicy({ rules: [{ tool: 'bash', action: 'allow' }, { tool: 'write', action: 'deny', pattern: 'src/**' }] });

const dir = mkdtempSync(join(tmpdir(), 'rx-xargs-appended-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Runs `line` in bash with `input` on its input, in a fresh sandbox holding `src/a` (text `a`) and `cmds` (`touch ran`): the sandbox. */
function run(line: string, input: string): string {
  const box = mkdtempSync(join(dir, 'box-'));
  mkdirSync(join(box, 'src'));
  writeFileSync(join(box, 'src/a'), 'a\n');
  writeFileSync(join(box, 'cmds'), 'touch ran\n');
  spawnSync('bash', ['-c', line], { cwd: box, encoding: 'utf8', timeout: 20_000, input });
  return box;
}

/** Lines, and an input that makes each run a command (leaving `ran`) or change `src/a`. */
const ATTACKS: readonly (readonly [string, string])[] = [
  ['xargs find src', '-delete'],
  ['xargs find .', '-exec touch ran ;'],
  ['xargs awk', "'BEGIN{system(\"touch ran\")}'"],
  ['xargs sed -n', '-e e cmds'],
  ['xargs sed s/a/b/', '-i src/a'],
  ['xargs -I{} find src {}', '-delete'],
  ['xargs git', '-c alias.x=!touch\\ ran x'],
];

describe('what xargs appends may be an option', () => {
  it('bash runs a command or changes src/a with each input (the attacks are real)', () => {
    for (const [line, input] of ATTACKS) {
      const box = run(line, `${input}\n`);
      const changed = !existsSync(join(box, 'src/a')) || readFileSync(join(box, 'src/a'), 'utf8') !== 'a\n';
      expect(existsSync(join(box, 'ran')) || changed, line).toBe(true);
    }
  }, 60_000);

  it.each(ATTACKS.map(([line]) => line))('%j is denied under deny rm *', (line) => {
    expect(denyRm.evaluate('bash', line).action).toBe('deny');
  });

  it.each(['xargs find src', 'xargs sed s/a/b/', 'xargs awk', 'xargs sed -n p'])('%j is denied under deny write src/**', (line) => {
    expect(denySrc.evaluate('bash', line).action).toBe('deny');
  });

  it('git and tar read what xargs appends as an unknown option, as they read "$x"', () => {
    expect(denyRm.evaluate('bash', 'xargs git log').reason).toContain('a word only known when it runs ("{}")');
    expect(denyRm.evaluate('bash', 'xargs tar -cf a.tar').reason).toContain('a word only known when it runs ("{}")');
  });
});

describe('programs whose options run nothing stay allowed', () => {
  it.each(['xargs grep foo', 'xargs mv -t d/', 'find . -name "*.log" | xargs grep -l x', 'xargs -I{} cp {} out/', 'xargs wc -l'])(
    '%j is allowed under deny rm *',
    (line) => {
      expect(denyRm.evaluate('bash', line).action).toBe('allow');
    },
  );

  it('xargs rm -f stays denied, for its rm', () => {
    expect(denyRm.evaluate('bash', 'xargs rm -f').reason).toContain('rm *');
  });
});
