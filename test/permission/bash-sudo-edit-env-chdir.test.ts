import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { PermissionPolicy } from '../../src/permission/index.js';

// Two readings of env's and sudo's own words for the write rules. `sudo -e` / `--edit` and
// `sudoedit` edit (write) their operands, past sudo's options and their values (sudo 1.9's
// parse_args: sudo is not installed here). And a change of folder (env -C, sudo -D / -R) is
// read from the wrapper's own options only: `env grep -C 3 foo x > out/y` changes none.

const denySrc = new PermissionPolicy({ rules: [{ tool: 'bash', action: 'allow' }, { tool: 'write', action: 'deny', pattern: 'src/**' }] });
const denyRm = new PermissionPolicy({ rules: [{ tool: 'bash', action: 'allow', pattern: '*' }, { tool: 'bash', action: 'deny', pattern: 'rm *' }] });

const dir = mkdtempSync(join(tmpdir(), 'rx-sudo-edit-env-chdir-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Runs `line` in bash in a fresh sandbox holding `src/` and `x`: whether `path` was written. */
function bashWrites(line: string, path: string): boolean {
  const box = mkdtempSync(join(dir, 'box-'));
  mkdirSync(join(box, 'src'));
  mkdirSync(join(box, 'out'));
  writeFileSync(join(box, 'x'), 'a\nfoo\nb\n');
  spawnSync('bash', ['-c', line], { cwd: box, encoding: 'utf8', timeout: 20_000, input: '' });
  return existsSync(join(box, path));
}

describe('sudo -e, sudo --edit and sudoedit write their operands', () => {
  it.each([
    'sudo -e src/a', 'sudo --edit src/a', 'sudo --ed src/a', 'sudoedit src/a', '/usr/bin/sudo -e src/a',
    'sudo -e -u root src/a', 'sudo -eu root src/a', 'sudo -u root -e a.txt src/a', 'sudo --user=root --edit src/a',
    'sudo -e -- src/a', 'sudo -e -p "pw: " src/a', 'sudo -hhost -e src/a', 'sudo -h host -e src/a',
    'sudoedit -u root -- src/a', 'sudo -u root sudoedit src/a', 'timeout 5 sudoedit src/a',
  ])('%j is denied under deny write src/**, naming src/a', (line) => {
    const decision = denySrc.evaluate('bash', line);
    expect(decision.action).toBe('deny');
    expect(decision.reason).toContain('"src/a"');
  });

  it("an option's value is no operand; nor is anything without -e", () => {
    for (const line of ['sudo -e -p src/a README.md', 'sudoedit -g src docs/a', 'sudo -e -u src README.md', 'sudo -e a.txt']) {
      expect(denySrc.evaluate('bash', line).action, line).toBe('allow');
    }
    expect(denySrc.evaluate('bash', 'sudo -e src/a').action).toBe('deny');
  });

  it('an option it cannot read, or a word only known when the line runs before the files, counts as any path', () => {
    for (const line of ['sudo -e $F', 'sudo -e -u "$U" README.md', 'sudo -e -X README.md', 'sudo -X -e README.md', 'sudoedit --bogus README.md']) {
      const decision = denySrc.evaluate('bash', line);
      expect(decision.action, line).toBe('deny');
      expect(decision.reason, line).toMatch(/editing files past ".*", whose options the checker cannot read, which may write any path/);
    }
    // A file operand only known when it runs is read as a shape, as other writes are.
    expect(denySrc.evaluate('bash', 'sudo -e src/$F').reason).toContain('"src/$F"');
  });

  it('an edited file other programs run makes the line unreadable, as other writes of one do', () => {
    expect(denyRm.evaluate('bash', 'sudo -e .git/hooks/pre-commit').reason).toMatch(/a write to a file other programs run \("\.git\/hooks\/pre-commit"\)/);
    expect(denyRm.evaluate('bash', 'sudoedit .npmrc').reason).toMatch(/a file other programs run \("\.npmrc"\)/);
  });

  it('-D / -R with -e: the files may be read from another folder', () => {
    expect(denySrc.evaluate('bash', 'sudoedit -D /tmp a.txt').reason).toContain('"*/a.txt"');
  });
});

describe("a change of folder is read from env's and sudo's own options only", () => {
  const NO_CHANGE = [
    'env grep -C 3 foo x > out/y', 'env -i grep -C 3 foo x > out/y', 'env LANG=C grep -C3 foo x > out/y',
    'env -i -- grep -C 3 foo x > out/y', 'sudo grep -R foo . > out/y', 'sudo -u root grep -D skip foo x > out/y', 'sudo -n -- sort -R x > out/y',
  ];

  it.each(NO_CHANGE)('%j is allowed under deny write src/** (env lines: bash and GNU env write out/y)', (line) => {
    expect(denySrc.evaluate('bash', line).action).toBe('allow');
    if (line.startsWith('env')) expect(bashWrites(line, 'out/y')).toBe(true);
  });

  it("the wrapper's own -C / -D / -R still move every later relative write", () => {
    for (const line of ['env -C src tee x', 'env --chdir=src tee x', 'env -iC src tee x', 'sudo -D src tee x', 'sudo -R / tee x', 'sudo -u root --chdir=src tee x']) {
      expect(denySrc.evaluate('bash', line).reason, line).toContain('"*/x"');
    }
    expect(denySrc.evaluate('bash', 'env grep -C 3 foo x > out/y').action).toBe('allow');
  });

  it('where the command start is not known, every word counts, as before', () => {
    for (const line of ['sudo -s grep -D skip foo x > out/y', 'env A=$X grep -C 3 foo x > out/y', 'sudo "$o" grep -R foo x > out/y']) {
      expect(denySrc.evaluate('bash', line).reason, line).toContain('"*/out/y"');
    }
    expect(denySrc.evaluate('bash', 'sudo grep -R foo . > out/y').action).toBe('allow');
  });

  // The parser drops the `5` of `5 >f` (read as a descriptor) and keeps `{fd}` of `{fd}>f`, so the
  // words it gives may not be bash's: here bash's env takes `-C src`, which the words show as a value or an argument.
  const HIDDEN = ['env -u 5 >/dev/null -u x -C src tee a.txt', 'env {fd}>/dev/null -C src tee a.txt'];

  it.each(HIDDEN)('%j writes src/a.txt in bash and is denied', (line) => {
    expect(bashWrites(line, 'src/a.txt')).toBe(true);
    expect(denySrc.evaluate('bash', line).action).toBe('deny');
    expect(denySrc.evaluate('bash', 'env grep -C 3 foo x > out/y').action).toBe('allow');
  });
});
