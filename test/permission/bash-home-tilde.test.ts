import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { PermissionPolicy } from '../../src/permission/index.js';

// `~` and `~/x` are the home folder the line was given: under a bash deny rule, `cd ~` is no
// write into a file other programs run. A line that changes HOME, however it does it, stays
// unreadable, and so does a `~` form that is not HOME (`~-` is $OLDPWD, `~+` is $PWD).

const policy = new PermissionPolicy({ rules: [{ tool: 'bash', action: 'allow', pattern: '*' }, { tool: 'bash', action: 'deny', pattern: 'rm *' }] });

describe('the home folder under a bash deny rule', () => {
  it.each(['cd ~', 'cd ~/x', 'cd ~ && ls', 'cd ~/src && git status', 'cp notes.txt ~', 'cd ~/ws; ls -la'])('%j is allowed', (line) => {
    expect(policy.evaluate('bash', line).action).toBe('allow');
  });

  it.each(['cd ~/.git/hooks', 'cd ~/x/.vscode', 'echo x > ~/.npmrc', 'cd ~/.g*', 'cd ~/$d', 'cd ~-', 'cd ~+', 'cd ~root'])(
    '%j is still denied: it may be a folder other programs run files of',
    (line) => {
      expect(policy.evaluate('bash', line).action).toBe('deny');
    },
  );
});

/** Lines that change HOME (or PATH) before `~` is read, each proven against bash below. */
const CHANGES_HOME = [
  'HOME=/usr; cd ~',
  'export HOME=/usr; cd ~',
  'f() { cd ~; }; HOME=/usr; f',
  'read HOME <<< /usr; cd ~',
  'coproc HOME { :; }; cd ~',
  'export {HOME,X}=/usr; cd ~',
  'declare H{O,}ME=/usr; cd ~',
  'export HOM?=usr; cd ~',
];

const dir = mkdtempSync(join(tmpdir(), 'rx-home-tilde-'));
// A file a glob in a name (`HOM?=usr`) expands to.
writeFileSync(join(dir, 'HOME=usr'), '');
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The HOME bash has after `line`, given HOME=/home/given. */
function homeAfter(line: string): string {
  const out = spawnSync('bash', ['-c', `${line}; printf %s "$HOME"`], { cwd: dir, encoding: 'utf8', env: { PATH: process.env.PATH, HOME: '/home/given' }, timeout: 10_000 });
  return out.stdout;
}

describe('a line that changes HOME', () => {
  it.each(CHANGES_HOME)('%j is denied', (line) => {
    expect(policy.evaluate('bash', line).action).toBe('deny');
  });

  it('bash changes HOME in each (the table is honest)', () => {
    for (const line of CHANGES_HOME) expect(homeAfter(line), line).not.toBe('/home/given');
  });

  it.each(['coproc PATH { :; }; ls', 'export {PATH,X}=bin; ls', 'export PAT?=bin; ls'])('%j, a change of PATH, is denied', (line) => {
    expect(policy.evaluate('bash', line).action).toBe('deny');
  });

  it.each(['coproc cat f', 'export FOO={a,b}', 'export A=x*', 'declare -p'])('%j is allowed', (line) => {
    expect(policy.evaluate('bash', line).action).toBe('allow');
  });
});
