/**
 * A cloned repository plants `hooks -> .git/hooks`; `echo 'rm -rf x' > hooks/pre-commit`,
 * then an allowed `git commit`, would run a command the bash deny rules refused. Given the
 * workspace, a write through a link into a file other programs run makes the line one the
 * checker cannot read, as naming `.git/hooks/pre-commit` itself does.
 */
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { PermissionRule } from '../../src/permission/permission-rule.js';
import { PermissionPolicy } from '../../src/permission/permission-policy.js';

let root: string;
let ws: string;
beforeEach(() => {
  root = realpathSync(mkdtempSync(join(tmpdir(), 'bash-executed-links-')));
  ws = join(root, 'ws');
  for (const dir of [join(ws, '.git/hooks'), join(ws, 'src'), join(root, 'other/.git')]) mkdirSync(dir, { recursive: true });
  writeFileSync(join(ws, '.git/config'), '');
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

const link = (target: string, at: string): void => symlinkSync(target, join(ws, at));
const DENY_RM: PermissionRule[] = [{ tool: 'bash', action: 'allow' }, { tool: 'bash', action: 'deny', pattern: 'rm *' }];
const decide = (line: string, rules: readonly PermissionRule[] = DENY_RM) => new PermissionPolicy({ rules }).evaluate('bash', line, { workspace: ws });

describe('bash writes through a link into a file other programs run', () => {
  it('a link to .git/hooks: the line is unreadable under a bash deny rule, and the reason names where it leads', () => {
    link('.git/hooks', 'hooks');
    const decided = decide("echo 'rm -rf x' > hooks/pre-commit");
    expect(decided.action).toBe('deny');
    expect(decided.reason).toContain('leads to ".git/hooks/pre-commit" through a symbolic link');
    expect(decided.reason).toContain('so the bash deny rules cannot check it');
    // As shown the path is no such file: the link is what makes it one.
    expect(new PermissionPolicy({ rules: DENY_RM }).evaluate('bash', "echo 'rm -rf x' > hooks/pre-commit").action).toBe('allow');
  });

  it('a link to .git/config, a chain ending in .git, a cd into the link, a folder copied into it', () => {
    link('.git/config', 'cfg');
    link('.git', 'g1');
    link('g1', 'g2');
    expect(decide('echo x >> cfg').action).toBe('deny');
    expect(decide('echo x > g2/hooks/post-checkout').action).toBe('deny');
    expect(decide('cd g2 && echo x > config').action).toBe('deny');
    expect(decide('cp -r y g2/hooks').action).toBe('deny');
  });

  it('a link leading to another repository outside the workspace counts too', () => {
    link(join(root, 'other/.git'), 'ext');
    expect(decide('echo x > ext/config').action).toBe('deny');
  });

  it('asks under an allow pattern alone, and under bash ask rules', () => {
    link('.git/hooks', 'hooks');
    expect(decide('echo x > hooks/pre-push', [{ tool: 'bash', action: 'allow', pattern: 'echo *' }]).action).toBe('ask');
    expect(decide('echo x > hooks/pre-push', [{ tool: 'bash', action: 'allow' }, { tool: 'bash', action: 'ask', pattern: 'curl *' }]).action).toBe('ask');
    // Only a bare allow of all bash vouches for everything, as it does for `.git/hooks/pre-push` itself.
    expect(decide('echo x > hooks/pre-push', [{ tool: 'bash', action: 'allow' }]).action).toBe('allow');
  });

  it('a link elsewhere, or a plain write, stays readable', () => {
    link('src', 'frontend');
    expect(decide('echo x > frontend/a.ts').action).toBe('allow');
    expect(decide('echo x > out.txt && cat hooks/x').action).toBe('allow');
  });
});
