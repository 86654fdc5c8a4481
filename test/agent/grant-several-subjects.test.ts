import { describe, expect, it } from 'vitest';
import { ReActAgent } from '../../src/agent/react-agent.js';
import type { ApprovalRequest } from '../../src/permission/approval.js';
import { PermissionPolicy } from '../../src/permission/permission-policy.js';
import { ScriptedModel } from '../../src/model/scripted-model.js';
import type { Tool } from '../../src/tools/tool.js';
import { collect, own } from '../support/collect-events.js';

/** A shell tool whose rules judge both its command and its working folder (as an MCP shell server's are). */
const shell: Tool = {
  name: 'shell',
  description: 'Runs a command in a folder.',
  parameters: { type: 'object' },
  subjects: (args) => [args.command, args.cwd].filter((v): v is string => typeof v === 'string'),
  execute: (args) => `ran ${JSON.stringify(args)}`,
};

const calls = (...args: Record<string, string>[]) => args.map((a, i) => ({ toolCalls: [{ id: `c${i + 1}`, name: 'shell', args: a }] }));

describe('an "always" for a call with several subjects', () => {
  it('covers each subject it was asked about, never a single subject that reads like them joined', async () => {
    const asked: ApprovalRequest[] = [];
    const model = new ScriptedModel([
      // Approved "always": the command `git log --format=%H` in the folder `x; rm -rf ~`.
      ...calls({ command: 'git log --format=%H', cwd: 'x; rm -rf ~' }, { command: 'git log --format=%H, x; rm -rf ~' }, { command: 'git log --format=%H', cwd: 'x; rm -rf ~' }),
      { text: 'done' },
    ]);
    const permissions = new PermissionPolicy({ rules: [{ tool: 'shell', action: 'ask' }] });
    const agent = new ReActAgent({ model, tools: [shell], permissions, approve: (r) => (asked.push(r), asked.length === 1 ? { decision: 'always' } : { decision: 'reject' }) });
    const events = await collect(agent.stream('go'));
    // The second call's one command is new: it asks (and is rejected); the third is the approved call again.
    expect(asked.map((r) => r.callId)).toEqual(['c1', 'c2']);
    expect(own(events, 'ToolCallEnd').map((e) => e.error === undefined)).toEqual([true, false, true]);
  });
});
