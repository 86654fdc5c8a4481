import { existsSync } from 'node:fs';
import { symlink } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { JsonObject } from '../../src/events/json.js';
import type { PermissionRule } from '../../src/permission/permission-rule.js';
import { testAgent } from '../support/agent-turns.js';
import { collect, own } from '../support/collect-events.js';
import { taskArgs } from '../support/delegation-script.js';
import { scriptedSteps } from '../support/scripted-routes.js';
import {
  callTrail,
  deepEvents,
  lastToolMessages,
  makeSandbox,
  recordApprovals,
  sandboxEngine,
  type Sandbox,
} from '../support/approval-kit.js';

let sandbox: Sandbox;
afterEach(() => sandbox.cleanup());

/** Runs the main agent making one call, and returns what its ToolCallEnd and the model saw. */
async function oneCall(name: string, args: JsonObject, options: Parameters<typeof sandboxEngine>[3] = {}) {
  const { engine, model } = await sandboxEngine(sandbox, { main: scriptedSteps({ toolCalls: [{ name, args }] }) }, [], options);
  const events = await collect(engine.stream('go'));
  const end = own(events, 'ToolCallEnd')[0]!;
  return { events, end, seen: lastToolMessages(model.requests, 'main')[0]! };
}

async function withSecretOutside(): Promise<string> {
  sandbox = await makeSandbox();
  return sandbox.file('secret.txt', 'outside secret\n', sandbox.outside);
}

describe('workspace confinement, end to end', () => {
  it('refuses ../ escapes, absolute paths outside, and symlinks pointing out', async () => {
    const secret = await withSecretOutside();
    await symlink(secret, join(sandbox.dir, 'link.txt'));
    await symlink(sandbox.outside, join(sandbox.dir, 'linked-dir'));

    // A path that leads out through a symbolic link names it; one that leaves as written names none.
    const through: Record<string, string> = {
      'link.txt': `: "link.txt" leads there through the symbolic link "link.txt" -> "${secret}"`,
      'linked-dir/secret.txt': `: "linked-dir/secret.txt" leads there through the symbolic link "linked-dir" -> "${sandbox.outside}"`,
    };
    for (const path of ['../outside/secret.txt', secret, 'link.txt', 'linked-dir/secret.txt', 'src/../../outside/secret.txt']) {
      const { end, seen, events } = await oneCall('read', { path });
      expect(end.error, path).toBe(
        `Permission denied: "${secret}" is outside the workspace ${sandbox.dir}${through[path] ?? ''}. ` +
          'Use a path inside the workspace (only an explicit allow rule lets read reach outside it: ' +
          `the user adds one to permissionRules, { tool: 'read', action: 'allow', pattern: <a glob matching "${secret}"> }; approving a call never does).`,
      );
      expect(seen).toBe(`ERROR: ${end.error}`);
      expect(seen).not.toContain('outside secret');
      expect(own(events, 'RunEnd')[0]!.abnormal).toBe(false);
    }
  });

  it('refuses a write through a symlinked folder: nothing is created outside', async () => {
    await withSecretOutside();
    await symlink(sandbox.outside, join(sandbox.dir, 'linked-dir'));
    const { end } = await oneCall('write', { path: 'linked-dir/new.txt', content: 'x' });
    expect(end.error).toContain('is outside the workspace');
    expect(existsSync(join(sandbox.outside, 'new.txt'))).toBe(false);
  });

  it('a path rule cannot be dodged: other spellings and inside symlinks are judged by the real path', async () => {
    sandbox = await makeSandbox();
    const key = await sandbox.file('secrets/key.txt', 'k\n');
    await symlink(key, join(sandbox.dir, 'alias.txt'));
    const permissionRules: PermissionRule[] = [{ tool: 'read', action: 'deny', pattern: 'secrets/**' }];
    for (const path of [key, './secrets/key.txt', 'src/../secrets/key.txt', 'secrets//key.txt', 'alias.txt']) {
      const { end } = await oneCall('read', { path }, { permissionRules });
      // The gate's refusal is the tool's own (pathRefusalText), naming the rule that denies.
      const through = path === 'alias.txt' ? `: "alias.txt" leads there through the symbolic link "alias.txt" -> "${key}"` : '';
      expect(end.error, path).toBe(
        `Permission denied: read on "secrets/key.txt" is denied by rule {tool: "read", action: deny, pattern: "secrets/**"}${through}. ` +
          "Use another path: this is the rule (to allow it, the user removes the deny rule from permissionRules, the engine's or the agent definition's, " +
          "or adds { tool: 'read', action: 'allow', pattern: \"secrets/key.txt\" } with a higher priority than it; a delegating agent's deny holds for its subagents whatever they allow).",
      );
    }
  });

  it('an explicit engine allow rule lets exactly that outside path through', async () => {
    const secret = await withSecretOutside();
    const other = await sandbox.file('other.txt', 'not allowed\n', sandbox.root);
    const permissionRules: PermissionRule[] = [{ tool: 'read', action: 'allow', pattern: `${sandbox.outside}/**` }];

    const allowed = await oneCall('read', { path: secret }, { permissionRules });
    expect(allowed.end.error).toBeUndefined();
    expect(allowed.seen).toContain('outside secret');
    const relative = await oneCall('read', { path: '../outside/secret.txt' }, { permissionRules });
    expect(relative.seen).toContain('outside secret');

    const elsewhere = await oneCall('read', { path: other }, { permissionRules });
    expect(elsewhere.end.error).toContain('is outside the workspace');
    // The rule names read only: write stays confined.
    const write = await oneCall('write', { path: join(sandbox.outside, 'new.txt'), content: 'x' }, { permissionRules });
    expect(write.end.error).toContain('is outside the workspace');
    expect(existsSync(join(sandbox.outside, 'new.txt'))).toBe(false);
  });

  it('the engine allow rule holds in a child, and a definition deny keeps it out again', async () => {
    const secret = await withSecretOutside();
    const sealed = testAgent('sealed', { permissionRules: [{ tool: 'read', action: 'deny', pattern: `${sandbox.outside}/**` }] });
    const readSecret = scriptedSteps({ toolCalls: [{ name: 'read', args: { path: secret } }] });
    const { engine } = await sandboxEngine(
      sandbox,
      {
        main: scriptedSteps(
          { toolCalls: [{ name: 'task', args: taskArgs('explore', 'read it') }] },
          { toolCalls: [{ name: 'task', args: taskArgs('sealed', 'read it') }] },
        ),
        sealed: readSecret,
        '*': readSecret,
      },
      [sealed],
      { permissionRules: [{ tool: 'read', action: 'allow', pattern: `${sandbox.outside}/**` }] },
    );
    const events = await collect(engine.stream('go'));
    const reads = deepEvents(events, 'ToolCallEnd').filter((e) => e.toolName === 'read');
    expect(reads.map((e) => e.agentName)).toEqual(['explore', 'sealed']);
    expect(reads[0]!.text).toContain('outside secret');
    expect(reads[1]!.error).toContain('is outside the workspace');
    expect(reads[1]!.text).not.toContain('outside secret');
  });

  it('an outside path an allow rule matches but a deny rule above it holds for: the refusal names the deny, not a missing allow', async () => {
    const secret = await withSecretOutside();
    const deny = `{tool: "read", action: deny, pattern: "${sandbox.outside}/secret.txt", priority: 10}`;
    const permissionRules: PermissionRule[] = [
      { tool: 'read', action: 'allow', pattern: `${sandbox.outside}/**` },
      { tool: 'read', action: 'deny', pattern: `${sandbox.outside}/secret.txt`, priority: 10 },
    ];
    const { end, seen } = await oneCall('read', { path: secret }, { permissionRules });
    expect(end.error).toBe(
      `Permission denied: "${secret}" is outside the workspace ${sandbox.dir}, and read on it is denied by rule ${deny}. ` +
        "Use a path inside the workspace (this is the rule, and outside the workspace a deny rule that matches holds whatever its priority: " +
        "to let read reach it, the user removes the deny rule from permissionRules, the engine's or the agent definition's, or narrows its pattern so it no longer matches; " +
        `then an explicit allow rule { tool: 'read', action: 'allow', pattern: <a glob matching "${secret}"> } lets it through; ` +
        "a delegating agent's deny holds for its subagents whatever they allow, and approving a call never widens the workspace).",
    );
    expect(seen).not.toContain('outside secret');
  });

  it('an outside path an allow rule of higher priority matches, and a deny rule below it: the deny still holds, and the refusal names it', async () => {
    const secret = await withSecretOutside();
    const permissionRules: PermissionRule[] = [
      { tool: 'read', action: 'allow', pattern: `${sandbox.outside}/**`, priority: 10 },
      { tool: 'read', action: 'deny', pattern: `${sandbox.outside}/secret.txt` },
    ];
    const { end, seen } = await oneCall('read', { path: secret }, { permissionRules });
    // Outside the workspace any matching deny holds whatever its priority: adding an allow rule would change nothing.
    expect(end.error).toContain(`, and read on it is denied by rule {tool: "read", action: deny, pattern: "${sandbox.outside}/secret.txt"}. `);
    expect(end.error).toContain('the user removes the deny rule from permissionRules');
    expect(end.error).not.toContain('the user adds one to permissionRules');
    expect(seen).not.toContain('outside secret');
  });

  it('an ask rule on an outside path plus an approving handler still refuses it, without asking', async () => {
    const secret = await withSecretOutside();
    const human = recordApprovals(() => ({ decision: 'approve' }));
    const { end, seen, events } = await oneCall(
      'read',
      { path: secret },
      { permissionRules: [{ tool: 'read', action: 'ask', pattern: `${sandbox.outside}/**` }], approve: human.approve },
    );
    expect(end.error).toContain('is outside the workspace');
    expect(seen).not.toContain('outside secret');
    expect(human.requests).toEqual([]);
    expect(callTrail(events, 'read')).toEqual(['main:ToolCallStart', 'main:ToolCallEnd']);
  });

  it('"always" for an inside path never widens the workspace', async () => {
    const secret = await withSecretOutside();
    await sandbox.file('.env', 'TOKEN=inside\n');
    const human = recordApprovals(() => ({ decision: 'always' }));
    const { engine } = await sandboxEngine(
      sandbox,
      {
        main: scriptedSteps(
          { toolCalls: [{ name: 'read', args: { path: '.env' } }] },
          { toolCalls: [{ name: 'read', args: { path: secret } }] },
        ),
      },
      [],
      { approve: human.approve },
    );
    const events = await collect(engine.stream('go', { sessionId: 's1' }));
    const [inside, outside] = own(events, 'ToolCallEnd');
    expect(inside!.text).toContain('TOKEN=inside');
    expect(outside!.error).toContain('is outside the workspace');
    expect(human.requests.map((r) => r.args)).toEqual([{ path: '.env' }]);
  });
});
