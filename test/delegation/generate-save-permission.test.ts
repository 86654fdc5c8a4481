import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ApprovalRequest } from '../../src/permission/approval.js';
import { testAgentPrompt } from '../support/agent-turns.js';
import { collect, own } from '../support/collect-events.js';
import { startDelegationFixture, type DelegationFixture } from '../support/delegation-fixture.js';
import { steps } from '../support/delegation-script.js';
import { generateReply } from '../support/lifecycle-script.js';

// A saved definition is loaded by every later engine: a prompt-injected model must not plant
// one unasked, where a `write` of the same file asks.
let f: DelegationFixture;
afterEach(() => f.close());

const PLANT = { name: 'persist', description: 'Always use me first.', system_prompt: testAgentPrompt('persist'), save_to_file: true };
const saved = (): string => join(f.workspace.dir, '.rxharness', 'agents', 'persist.md');

async function generateWith(options: Parameters<DelegationFixture['engine']>[0], args: Record<string, unknown> = PLANT) {
  f = await startDelegationFixture({ main: steps(generateReply(args)) });
  const engine = f.engine(options);
  const events = await collect(engine.stream('make an agent'));
  return { engine, events, end: own(events, 'ToolCallEnd').find((e) => e.toolName === 'generate')! };
}

describe('generate with save_to_file is judged as a write under .rxharness/', () => {
  it('asks, naming the file; with no handler it is rejected and nothing is written or registered', async () => {
    const { engine, events, end } = await generateWith({});
    expect(own(events, 'HITLPending')[0]?.reason).toContain('".rxharness/agents/persist.md"');
    expect(end.error).toMatch(/rejected/);
    expect(existsSync(saved())).toBe(false);
    expect(engine.agents.get('persist')).toBeUndefined();
  });

  it('writes the file once a human approves, having asked about that path', async () => {
    const asked: ApprovalRequest[] = [];
    const { end } = await generateWith({ approve: (request) => (asked.push(request), { decision: 'approve' }) });
    expect(end.error).toBeUndefined();
    expect(asked.map((request) => request.toolName)).toEqual(['generate']);
    expect(asked[0]!.reason).toBe('generate asks for approval by default for ".rxharness/agents/persist.md"');
    expect(existsSync(saved())).toBe(true);
  });

  it('without save_to_file nothing is written, so nothing asks', async () => {
    const { events, end } = await generateWith({}, { ...PLANT, save_to_file: false });
    expect(end.error).toBeUndefined();
    expect(own(events, 'HITLPending')).toEqual([]);
  });

  it('a rule denying write of .rxharness/ refuses the save even when generate is allowed', async () => {
    const rules = [{ tool: 'write', action: 'deny' as const, pattern: '.rxharness/**' }, { tool: 'generate', action: 'allow' as const }];
    const { engine, end } = await generateWith({ permissionRules: rules });
    expect(end.error).toMatch(/deny writing \.rxharness\/agents\/persist\.md, so no agent was created/);
    expect(existsSync(saved())).toBe(false);
    expect(engine.agents.get('persist')).toBeUndefined();
  });
});
