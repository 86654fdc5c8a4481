import { describe, expect, it } from 'vitest';
import { ReActAgent } from '../../src/agent/react-agent.js';
import type { ToolCallEndEvent } from '../../src/events/agent-event.js';
import { ScriptedModel } from '../../src/model/scripted-model.js';
import type { Tool, ToolResult } from '../../src/tools/tool.js';
import { outcomeOf } from '../support/collect.js';
import { isWellFormed } from '../support/well-formed.js';

// A tool's answer is sent back to the model in every later request of the conversation. A
// lone surrogate in it (an MCP server's `"\ud800"`, a tool's cut through an emoji) is
// `\ud800` in that JSON, which a strict server refuses: every later request would fail.

async function answerOf(answer: ToolResult | string): Promise<{ end: ToolCallEndEvent; sent: string }> {
  const tool: Tool = { name: 'odd', description: 'd', parameters: { type: 'object' }, execute: () => answer };
  const model = new ScriptedModel([{ toolCalls: [{ id: 'c1', name: 'odd', args: {} }] }, { text: 'ok' }]);
  const { values } = await outcomeOf(new ReActAgent({ model, tools: [tool] }).stream('go'));
  const end = values.find((e): e is ToolCallEndEvent => e.type === 'ToolCallEnd')!;
  return { end, sent: String(model.requests[1]?.messages.at(-1)?.content) };
}

describe('a tool answer with lone surrogates', () => {
  it('reaches the event and the next request as whole text: each lone half becomes U+FFFD, pairs stay', async () => {
    const { end, sent } = await answerOf('a\ud800b \ud83d\ude00 c\udc00');
    expect(end.text).toBe('a\ufffdb \ud83d\ude00 c\ufffd');
    expect(sent).toBe(end.text);
  });

  it('a failed result: its text and error both', async () => {
    const { end, sent } = await answerOf({ text: 'ERROR: bad \ud83d', error: 'bad \ud83d' });
    expect(end).toMatchObject({ text: 'ERROR: bad \ufffd', error: 'bad \ufffd' });
    expect(isWellFormed(sent)).toBe(true);
  });
});
