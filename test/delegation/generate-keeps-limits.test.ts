/**
 * `generate` copies `general`'s settings into the agent it makes; the limits among them must
 * come along too. An operator who bounds each `general` task with a `tokenBudget` (or caps
 * its replies with `settings.maxTokens`) must not see a model step around that bound by
 * generating a copy of `general` and delegating to the copy instead.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { defineAgent } from '../../src/subagent/define-agent.js';
import { testAgentPrompt } from '../support/agent-turns.js';
import { collect, own } from '../support/collect-events.js';
import { startDelegationFixture, type DelegationFixture } from '../support/delegation-fixture.js';
import { steps, taskReply } from '../support/delegation-script.js';
import { generateReply, parseTaskResult } from '../support/lifecycle-script.js';

const STEP = 100;
const usage = { prompt_tokens: 0, completion_tokens: STEP, total_tokens: STEP };

let f: DelegationFixture;
afterEach(() => f.close());

const BOUNDED_GENERAL = defineAgent({
  name: 'general',
  description: 'A general agent, each task bounded by the operator.',
  systemPrompt: testAgentPrompt('general'),
  tokenBudget: 2 * STEP,
  settings: { maxTokens: 64 },
});

describe('generate: a copy of general keeps its limits', () => {
  it('a generated agent draws on the per-task tokenBudget of the general it copies', async () => {
    f = await startDelegationFixture({
      main: steps(generateReply({ name: 'clone', description: 'A copy.', system_prompt: testAgentPrompt('clone') }), taskReply('clone', 'dig'), { text: 'done' }),
      // It would go on for 30 steps (3,000 tokens) if nothing held it.
      clone: (t) => ({ ...(t.step < 30 ? { toolCalls: [{ name: 'todo', arguments: { todos: [] } }] } : { text: 'dug' }), usage }),
    });
    const engine = f.engine({}, [BOUNDED_GENERAL]);
    const events = await collect(engine.stream('go'));
    expect(await engine.agents.get('clone')).toMatchObject({ tokenBudget: 2 * STEP, settings: { maxTokens: 64 } });
    // Its budget of 200 holds it: two requests of 100, the second made without tools.
    expect(f.requestsOf('clone')).toHaveLength(2);
    expect(f.requestsOf('clone').every((r) => r.body.max_tokens === 64 || r.body.max_completion_tokens === 64)).toBe(true);
    const result = parseTaskResult(own(events, 'ToolCallEnd').find((e) => e.toolName === 'task')!.text);
    expect(result).toMatchObject({ status: 'failure', content: expect.stringContaining('the token budget is spent: 200 of 200') });
  });
});
