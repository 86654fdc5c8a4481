/**
 * A token budget charged an estimate (the server reported no usage, or zeros) is charged the
 * whole request's: the tool schemas it offered are part of the prompt, often most of it.
 * Before, only the messages were counted, so a run with many tools on such a server went far
 * past its budget.
 */
import { describe, expect, it } from 'vitest';
import { ReActAgent } from '../../src/agent/react-agent.js';
import type { BudgetEvent, ContextSizeEvent } from '../../src/events/agent-event.js';
import { CHARS_PER_TOKEN, estimateTokens } from '../../src/model/estimate-tokens.js';
import { ScriptedModel } from '../../src/model/scripted-model.js';
import type { Tool } from '../../src/tools/tool.js';
import { collect } from '../support/collect-events.js';

/** A tool whose schema is much larger than the conversation, as real tool sets are. */
const wide: Tool = {
  name: 'wide',
  description: 'A tool with many documented parameters. '.repeat(20),
  parameters: { type: 'object', properties: Object.fromEntries(Array.from({ length: 40 }, (_, i) => [`p${i}`, { type: 'string', description: `parameter number ${i}, documented` }])) },
  execute: () => 'ok',
};

const ZERO = { promptTokens: 0, completionTokens: 0, totalTokens: 0 };

describe('an estimated charge counts the tools the request offered', () => {
  it('a server reporting zero tokens: the step is charged its ContextSize estimate (messages and tool schemas) and its answer', async () => {
    const text = 'All done, nothing else to do.';
    const model = new ScriptedModel([{ text, usage: ZERO }]);
    const events = await collect(new ReActAgent({ model, tools: [wide], tokenBudget: 100_000 }).stream('hello'));
    const size = events.find((e): e is ContextSizeEvent => e.type === 'ContextSize')!;
    const budget = events.find((e): e is BudgetEvent => e.type === 'Budget')!;
    const answer = Math.ceil(text.length / CHARS_PER_TOKEN);
    expect(budget.used).toBe(size.tokenCount + answer);
    // Much more than the messages alone: the schema is most of the prompt.
    expect(budget.used - answer).toBeGreaterThan(estimateTokens(model.requests[0]!.messages) + 200);
  });

  it('the last step, sent without tools, is charged without them', async () => {
    const text = 'The final answer.';
    const model = new ScriptedModel([{ text, usage: ZERO }]);
    const events = await collect(new ReActAgent({ model, tools: [wide], tokenBudget: 100_000, maxSteps: 1 }).stream('hello'));
    const budget = events.find((e): e is BudgetEvent => e.type === 'Budget')!;
    expect(budget.used).toBe(estimateTokens(model.requests[0]!.messages) + Math.ceil(text.length / CHARS_PER_TOKEN));
  });
});
