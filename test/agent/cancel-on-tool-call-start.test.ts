import { takeWhile } from 'rxjs';
import { afterEach, describe, expect, it } from 'vitest';
import { ReActAgent } from '../../src/agent/react-agent.js';
import type { Tool } from '../../src/tools/tool.js';
import { outcomeOf, typesOf } from '../support/collect.js';
import { FakeOpenAIServer } from '../support/fake-openai-server.js';
import { openAIModelFor } from '../support/openai-model.js';

/** A tool that answers at once and counts its executions: each one stands for a side effect (a write). */
function countingTool(): Tool & { runs: number } {
  const tool = {
    name: 'write',
    description: 'Writes at once.',
    parameters: { type: 'object' },
    runs: 0,
    execute: () => {
      tool.runs += 1;
      return 'written';
    },
  };
  return tool;
}

const WRITE_THEN_DONE = [{ toolCalls: [{ name: 'write', arguments: {} }] }, { text: 'done' }];

describe('cancelling a run on a tool call\'s ToolCallStart', () => {
  let server: FakeOpenAIServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  it('runs nothing: a tool that answers at once is not executed', async () => {
    server = await FakeOpenAIServer.start({ replies: WRITE_THEN_DONE });
    const tool = countingTool();
    const agent = new ReActAgent({ model: openAIModelFor(server), tools: [tool] });
    // Unsubscribes the run during the delivery of ToolCallStart, as a consumer's stop button would.
    const { values } = await outcomeOf(agent.stream('write it').pipe(takeWhile((event) => event.type !== 'ToolCallStart', true)));
    expect(typesOf(values).at(-1)).toBe('ToolCallStart');
    expect(tool.runs).toBe(0);
  });

  it('a streamed run that is not cancelled executes the tool once', async () => {
    server = await FakeOpenAIServer.start({ replies: WRITE_THEN_DONE });
    const tool = countingTool();
    const { values, completed } = await outcomeOf(new ReActAgent({ model: openAIModelFor(server), tools: [tool] }).stream('write it'));
    expect(completed).toBe(true);
    expect(values.find((event) => event.type === 'ToolCallEnd')).toMatchObject({ text: 'written' });
    expect(tool.runs).toBe(1);
  });

  it('call() (no events delivered) executes the tool once', async () => {
    server = await FakeOpenAIServer.start({ replies: WRITE_THEN_DONE });
    const tool = countingTool();
    const result = await new ReActAgent({ model: openAIModelFor(server), tools: [tool] }).call('write it');
    expect(result).toMatchObject({ abnormal: false, text: 'done' });
    expect(tool.runs).toBe(1);
  });
});
