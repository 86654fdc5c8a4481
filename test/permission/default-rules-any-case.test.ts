import { existsSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_RULES, PermissionPolicy, ruleMatches, type PermissionRule } from '../../src/permission/index.js';
import { EXECUTED_FILE_PATTERNS } from '../../src/permission/default-rules.js';
import { own } from '../support/collect-events.js';
import { runHostileCalls, tempWorkspace, type HostileCall } from './tool-calls-over-http.js';

// A review found the defaults' asks matched only the exact letter case and `.rxharness/` only
// at the root, while the bash check reads these names at any depth and in any case. On macOS
// or Windows `.NPMRC` is the `.npmrc` npm reads (script-shell=...), so a model with no
// approval handler could plant a command by writing it, or an agent under pkg/.rxharness/.

let cleanup: (() => Promise<void>) | undefined;
afterEach(async () => {
  await cleanup?.();
  cleanup = undefined;
});

const policy = new PermissionPolicy();

describe('the default asks match in any letter case', () => {
  it('a hostile model writing other-case executed files or a nested .rxharness/ is asked, refused without a handler, and nothing is written', async () => {
    const ws = await tempWorkspace('rxh-any-case-');
    cleanup = ws.cleanup;
    const paths = ['.NPMRC', '.VSCODE/tasks.json', '.Envrc', '.GIT/hooks/pre-commit', 'pkg/.rxharness/agents/evil.md'];
    const calls: HostileCall[] = paths.map((path) => ({ name: 'write', arguments: { path, content: 'script-shell=/tmp/evil\n' } }));
    const events = await runHostileCalls(ws.dir, calls);

    expect(own(events, 'HITLPending').map((p) => (p.args as { path: string }).path)).toEqual(paths);
    expect(own(events, 'HITLDecided').map((d) => d.decision)).toEqual(Array(paths.length).fill('reject'));
    expect(own(events, 'ToolCallEnd').every((end) => end.error !== undefined)).toBe(true);
    for (const path of paths) expect(existsSync(join(ws.dir, path)), path).toBe(false);
    expect(own(events, 'RunEnd')).toHaveLength(1);
  });

  it('a hostile model reading a secret in another case is asked and gets nothing of it', async () => {
    const ws = await tempWorkspace('rxh-any-case-');
    cleanup = ws.cleanup;
    await mkdir(join(ws.dir, 'cfg'));
    await writeFile(join(ws.dir, 'cfg', '.ENV'), 'API_KEY=sk-hidden-value\n');
    const events = await runHostileCalls(ws.dir, [{ name: 'read', arguments: { path: 'cfg/.ENV' } }]);

    expect(own(events, 'HITLPending').map((p) => p.reason)).toEqual(['read asks for approval by default for "cfg/.ENV"']);
    expect(JSON.stringify(own(events, 'ToolCallEnd'))).not.toContain('sk-hidden-value');
  });

  it.each(EXECUTED_FILE_PATTERNS)('writing what %j names, in upper case and nested, asks (the list bash reads too)', (pattern) => {
    const path = pattern.replace(/^\*\*\//, 'Pkg/').replace(/\/\*\*$/, '/X').toUpperCase();
    for (const tool of ['write', 'edit']) expect(policy.evaluate(tool, path).action, `${tool} ${path}`).toBe('ask');
  });

  it.each(['.Npmrc', '.YarnRC.yml', 'web/.Husky/pre-push', '.Idea/workspace.xml', '.DevContainer/devcontainer.json', '.Git', 'sub/.GIT/config'])(
    'write and edit of %s ask',
    (path) => {
      for (const tool of ['write', 'edit']) expect(policy.evaluate(tool, path).action, `${tool} ${path}`).toBe('ask');
    },
  );

  it.each(['.RXHARNESS/agents/x.md', 'pkg/.rxharness/agents/x.md', 'a/b/.Rxharness/skills/s/SKILL.md', 'pkg/.rxharness'])(
    'write and edit under a .rxharness/ folder at any depth ask: %s',
    (path) => {
      for (const tool of ['write', 'edit']) expect(policy.evaluate(tool, path).action, `${tool} ${path}`).toBe('ask');
      expect(policy.evaluate('read', path).action).toBe('allow');
    },
  );

  it.each(['.ENV', '.Env.Local', 'PROD.ENV', 'config/.ENVRC', 'deep/a/Staging.Env'])('reading, writing, editing or grepping %s asks', (path) => {
    for (const tool of ['read', 'write', 'edit', 'grep']) expect(policy.evaluate(tool, path).action, `${tool} ${path}`).toBe('ask');
  });

  it('a path longer than any real one, ending in another case, still asks', () => {
    expect(policy.evaluate('write', `${'a/'.repeat(2100)}.NPMRC`).action).toBe('ask');
  });

  it('the defaults keep matching in any case after the JSON trip a policy makes to a worker', () => {
    const carried = new PermissionPolicy({ defaults: JSON.parse(JSON.stringify(DEFAULT_RULES)) as PermissionRule[] });
    expect(carried.evaluate('write', '.NPMRC').action).toBe('ask');
    expect(carried.evaluate('write', 'pkg/.rxharness/agents/x.md').action).toBe('ask');
  });
});

describe('what the any-case defaults leave alone', () => {
  it.each(['src/Index.ts', 'README.md', '.rxharness-notes.md', 'pkg/.RXHARNESS-notes.md', 'src/Git/config.ts', 'ENVIRONMENT.md', 'NPMRC.md'])(
    'writes %s without asking',
    (path) => {
      for (const tool of ['write', 'edit']) expect(policy.evaluate(tool, path).action, `${tool} ${path}`).toBe('allow');
    },
  );

  it('user rules still match in the letter case written', () => {
    const rule: PermissionRule = { tool: 'write', action: 'deny', pattern: 'secrets/**' };
    expect(ruleMatches(rule, 'write', 'secrets/key')).toBe(true);
    expect(ruleMatches(rule, 'write', 'SECRETS/key')).toBe(false);
    const user = new PermissionPolicy({ rules: [{ tool: 'write', action: 'allow', pattern: '**/.npmrc' }] });
    expect(user.evaluate('write', '.npmrc').action).toBe('allow');
    // The user allowed one spelling; the other still meets the default ask.
    expect(user.evaluate('write', '.NPMRC').action).toBe('ask');
  });

  it('a user rule can name every spelling with a class, as the guide says', () => {
    const user = new PermissionPolicy({ rules: [{ tool: 'write', action: 'allow', pattern: '**/.[nN][pP][mM][rR][cC]' }] });
    expect(user.evaluate('write', '.NPMRC').action).toBe('allow');
    expect(user.evaluate('write', 'a/.Npmrc').action).toBe('allow');
  });
});
