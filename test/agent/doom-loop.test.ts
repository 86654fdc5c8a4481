import { describe, expect, it } from 'vitest';
import { ReActAgent } from '../../src/agent/react-agent.js';
import type { ApprovalRequest } from '../../src/permission/approval.js';
import { PermissionPolicy } from '../../src/permission/permission-policy.js';
import { ScriptedModel } from '../../src/model/scripted-model.js';
import { collect, own } from '../support/collect-events.js';

const echo = { name: 'echo', description: 'Echoes.', parameters: { type: 'object' }, execute: () => 'same again' };
const same = (n: number) => Array.from({ length: n }, (_, i) => ({ toolCalls: [{ id: `c${i + 1}`, name: 'echo', args: { text: 'x' } }] }));

describe('the doom-loop guard (opencode): the same call three times in a row asks', () => {
  it('the third identical call asks the approval handler, even though the rules allow it; approved, it runs', async () => {
    const asked: ApprovalRequest[] = [];
    const model = new ScriptedModel([...same(4), { text: 'stopped' }]);
    const agent = new ReActAgent({ model, tools: [echo], approve: (r) => (asked.push(r), { decision: 'approve' }) });
    const events = await collect(agent.stream('go'));
    expect(asked.map((r) => r.callId)).toEqual(['c3', 'c4']); // the third and the fourth in a row
    expect(asked[0]!.reason).toBe('the same echo call with the same arguments 3 times in a row (a loop?)');
    expect(own(events, 'HITLPending').map((e) => e.callId)).toEqual(['c3', 'c4']);
    expect(own(events, 'ToolCallEnd').every((e) => e.error === undefined)).toBe(true);
  });

  it('without a handler it fails closed: the model reads the rejection and the run goes on', async () => {
    const model = new ScriptedModel([...same(3), { text: 'I will stop looping.' }]);
    const events = await collect(new ReActAgent({ model, tools: [echo] }).stream('go'));
    const ends = own(events, 'ToolCallEnd');
    expect(ends.map((e) => e.error === undefined)).toEqual([true, true, false]);
    expect(ends[2]!.text).toMatch(/^ERROR: The echo call was rejected: no approval handler is configured \(fail-closed\)/);
    expect(events.at(-1)).toMatchObject({ type: 'RunEnd', abnormal: false, text: 'I will stop looping.' });
  });

  it('different arguments, or another call between, reset the count', async () => {
    const calls = [{ text: 'x' }, { text: 'x' }, { text: 'y' }, { text: 'x' }, { text: 'x' }].map((args, i) => ({ toolCalls: [{ id: `c${i}`, name: 'echo', args }] }));
    const model = new ScriptedModel([...calls, { text: 'done' }]);
    const events = await collect(new ReActAgent({ model, tools: [echo] }).stream('go'));
    expect(own(events, 'HITLPending')).toEqual([]);
    expect(own(events, 'ToolCallEnd').every((e) => e.error === undefined)).toBe(true);
  });

  it('a deny still denies (the guard only ever asks)', async () => {
    const model = new ScriptedModel([...same(3), { text: 'done' }]);
    const permissions = new PermissionPolicy({ rules: [{ tool: 'echo', action: 'deny' }] });
    const events = await collect(new ReActAgent({ model, tools: [echo], permissions, approve: () => ({ decision: 'approve' }) }).stream('go'));
    expect(own(events, 'HITLPending')).toEqual([]);
    expect(own(events, 'ToolCallEnd').every((e) => e.error?.startsWith('Permission denied'))).toBe(true);
  });
});
