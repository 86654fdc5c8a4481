import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ReActAgent } from '../../src/agent/react-agent.js';
import { ScriptedModel } from '../../src/model/scripted-model.js';
import { createReadTool } from '../../src/tools/builtin/read.js';
import { PermissionPolicy } from '../../src/permission/permission-policy.js';
import type { PermissionRule } from '../../src/permission/permission-rule.js';
import { collect, own } from '../support/collect-events.js';

// For a path outside the workspace the gate asked the policy whether an allow rule lets it out
// (which looks for the deny that keeps it out), then again for that deny: the rules were read
// twice for each refused path. Seen without timing: a rule whose pattern counts its reads.

let dir: string | undefined;
afterEach(async () => {
  if (dir !== undefined) await rm(dir, { recursive: true, force: true });
});

/** `rule` with a pattern that counts how often it is read (every match of the rule reads it). */
function counted(rule: PermissionRule & { readonly pattern: string }): { readonly rule: PermissionRule; readonly reads: () => number } {
  let reads = 0;
  const { pattern, ...rest } = rule;
  const watched = Object.defineProperty({ ...rest }, 'pattern', { enumerable: true, get: () => (reads++, pattern) }) as PermissionRule;
  return { rule: watched, reads: () => reads };
}

describe('a path outside the workspace that an allow rule matches and a deny rule keeps out', () => {
  it('is refused, naming the deny, after one reading of the rules', async () => {
    dir = await mkdtemp(join(tmpdir(), 'rx-outside-once-'));
    const secret = join(dir, 'outside', 'secret', 'key');
    const deny = counted({ tool: 'read', action: 'deny', pattern: `${join(dir, 'outside', 'secret')}/**` });
    const rules: PermissionRule[] = [{ tool: 'read', action: 'allow', pattern: `${join(dir, 'outside')}/**`, priority: 5 }, deny.rule];
    const permissions = new PermissionPolicy({ rules });
    // What one reading of the rules for the path costs: the deny that keeps it out, found once.
    const before = deny.reads();
    expect(permissions.outsideDenial('read', secret)?.rule).toBe(deny.rule);
    const once = deny.reads() - before;
    expect(once).toBeGreaterThan(0);

    await mkdir(join(dir, 'ws'));
    const model = new ScriptedModel([{ toolCalls: [{ id: 'c1', name: 'read', args: { path: secret } }] }, { text: 'done' }]);
    const agent = new ReActAgent({ model, tools: [createReadTool()], workspace: join(dir, 'ws'), permissions });
    const start = deny.reads();
    const events = await collect(agent.stream('go'));
    const read = deny.reads() - start;
    // Refused by the gate, in the words naming the deny rule (unchanged).
    expect(own(events, 'ToolCallEnd')[0]!.error).toMatch(/^Permission denied: ".*key" is outside the workspace .*, and read on it is denied by rule \{tool: "read", action: deny, pattern: ".*secret\/\*\*\"}/);
    expect(read).toBe(once);
  });
});
