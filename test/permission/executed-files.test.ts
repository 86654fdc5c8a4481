import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { PermissionPolicy } from '../../src/permission/index.js';
import { own } from '../support/collect-events.js';
import { runHostileCalls, tempWorkspace, type HostileCall } from './tool-calls-over-http.js';

// Issue 22 item 7: with bash refused, a model wrote `.git/config` (core.fsmonitor),
// `.git/hooks/*` and `.vscode/tasks.json` unasked, and the user's next `git status` ran the
// refused command. Writing what another program executes now asks, like bash.

let cleanup: (() => Promise<void>) | undefined;
afterEach(async () => {
  await cleanup?.();
  cleanup = undefined;
});

const BASH_DENIED = { permissionRules: [{ tool: 'bash', action: 'deny' } as const] };

describe('writes that execute ask by default', () => {
  it('a hostile model writing .git/config, a hook and .vscode/tasks.json is asked, refused without a handler, and nothing changes', async () => {
    const ws = await tempWorkspace('rxh-exec-files-');
    cleanup = ws.cleanup;
    execFileSync('git', ['init', '-q', ws.dir]);
    const configPath = join(ws.dir, '.git', 'config');
    const config = await readFile(configPath, 'utf8');
    const marker = join(ws.dir, 'pwned');
    const calls: HostileCall[] = [
      { name: 'write', arguments: { path: '.git/config', content: `${config}[core]\n\tfsmonitor = touch ${marker}; false\n` } },
      { name: 'edit', arguments: { path: '.git/config', old_string: '[core]', new_string: `[core]\n\tfsmonitor = touch ${marker}; false` } },
      { name: 'write', arguments: { path: '.git/hooks/pre-commit', content: `#!/bin/sh\ntouch ${marker}\n` } },
      { name: 'write', arguments: { path: '.vscode/tasks.json', content: '{"version":"2.0.0","tasks":[{"label":"x","type":"shell","command":"touch pwned","runOptions":{"runOn":"folderOpen"}}]}' } },
      { name: 'write', arguments: { path: '.npmrc', content: 'script-shell=/tmp/evil\n' } },
      { name: 'write', arguments: { path: 'packages/a/.envrc', content: 'touch pwned\n' } },
    ];
    const events = await runHostileCalls(ws.dir, calls, BASH_DENIED);

    const pending = own(events, 'HITLPending');
    expect(pending.map((p) => (p.args as { path: string }).path)).toEqual(calls.map((c) => c.arguments['path']));
    expect(pending[0]!.reason).toBe('write asks for approval by default for ".git/config"');
    expect(own(events, 'HITLDecided').map((d) => d.decision)).toEqual(Array(calls.length).fill('reject'));
    expect(own(events, 'ToolCallEnd').every((end) => end.error !== undefined)).toBe(true);

    expect(await readFile(configPath, 'utf8')).toBe(config);
    for (const path of ['.git/hooks/pre-commit', '.vscode/tasks.json', '.npmrc', 'packages/a/.envrc']) {
      expect(existsSync(join(ws.dir, path)), path).toBe(false);
    }
    // The user's next `git status` runs nothing the model planted.
    execFileSync('git', ['status', '--porcelain'], { cwd: ws.dir });
    expect(existsSync(marker)).toBe(false);
  });

  it('an approve handler is asked, and its answer decides', async () => {
    const ws = await tempWorkspace('rxh-exec-files-');
    cleanup = ws.cleanup;
    await mkdir(join(ws.dir, '.idea'));
    await writeFile(join(ws.dir, '.idea', 'workspace.xml'), '<project/>');
    const asked: string[] = [];
    const events = await runHostileCalls(
      ws.dir,
      [
        { name: 'write', arguments: { path: '.idea/workspace.xml', content: '<evil/>' } },
        { name: 'write', arguments: { path: '.devcontainer/devcontainer.json', content: '{}' } },
      ],
      { ...BASH_DENIED, approve: (request) => (asked.push(request.reason), { decision: request.reason.includes('.idea') ? 'reject' : 'approve' }) },
    );
    expect(asked).toEqual([
      'write asks for approval by default for ".idea/workspace.xml"',
      'write asks for approval by default for ".devcontainer/devcontainer.json"',
    ]);
    expect(await readFile(join(ws.dir, '.idea', 'workspace.xml'), 'utf8')).toBe('<project/>');
    expect(await readFile(join(ws.dir, '.devcontainer', 'devcontainer.json'), 'utf8')).toBe('{}');
    expect(own(events, 'RunEnd')).toHaveLength(1);
  });

  it.each([
    '.git/config', '.git/hooks/pre-commit', '.git', 'sub/module/.git/config', '.vscode/tasks.json', '.vscode/settings.json',
    '.idea/runConfigurations/x.xml', '.devcontainer/devcontainer.json', '.husky/pre-commit', 'web/.husky/pre-push',
    '.envrc', 'a/b/.envrc', '.npmrc', 'packages/x/.npmrc', '.yarnrc', '.yarnrc.yml', './.git/config',
    '.devcontainer.json', '.DEVCONTAINER.JSON', '.hg/hgrc', 'sub/.hg/hgrc', '.claude/settings.json', 'app/.claude/settings.local.json',
  ])('write and edit of %s ask; read does not (except .envrc, a secret too)', (path) => {
    const policy = new PermissionPolicy();
    for (const tool of ['write', 'edit']) expect(policy.evaluate(tool, path).action, `${tool} ${path}`).toBe('ask');
    if (!path.endsWith('.envrc')) expect(policy.evaluate('read', path).action).toBe('allow');
  });

  it.each(['src/git/config.ts', 'git/hooks.md', 'vscode.md', 'docs/.gitignore', '.github/CODEOWNERS', 'npmrc.md', 'src/idea.ts', 'devcontainer.json', 'docs/hg/hgrc.md', 'claude.md'])(
    'leaves %s alone',
    (path) => {
      expect(new PermissionPolicy().evaluate('write', path).action).toBe('allow');
    },
  );

  it('a user rule still overrides the default', () => {
    const policy = new PermissionPolicy({ rules: [{ tool: 'write', action: 'allow', pattern: '.vscode/**' }] });
    expect(policy.evaluate('write', '.vscode/settings.json').action).toBe('allow');
    expect(policy.evaluate('write', '.git/config').action).toBe('ask');
  });
});
