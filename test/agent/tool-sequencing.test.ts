import { map, timer } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { ReActAgent } from '../../src/agent/react-agent.js';
import { ScriptedModel } from '../../src/model/scripted-model.js';
import type { Tool } from '../../src/tools/tool.js';
import { createTestScheduler, timeline } from '../support/virtual-time.js';

describe('tool calls of one turn', () => {
  it('run one after another, never overlapping (virtual time)', () => {
    const scheduler = createTestScheduler();
    const spans: { callId: string; start: number; end?: number }[] = [];
    // Each call takes `ms` virtual milliseconds; the first is the slowest, so overlap would show.
    const sleep: Tool<{ ms: number }> = {
      name: 'sleep',
      description: 'Waits.',
      parameters: { type: 'object', properties: { ms: { type: 'integer' } }, required: ['ms'] },
      execute: ({ ms }, context) => {
        const span: { callId: string; start: number; end?: number } = { callId: context.callId, start: scheduler.now() };
        spans.push(span);
        return timer(ms).pipe(
          map(() => {
            span.end = scheduler.now();
            return `slept ${ms}`;
          }),
        );
      },
    };
    let log: string[] = [];
    scheduler.run(() => {
      const model = new ScriptedModel(
        [
          {
            toolCalls: [
              { id: 'a', name: 'sleep', args: { ms: 30 } },
              { id: 'b', name: 'sleep', args: { ms: 10 } },
              { id: 'c', name: 'sleep', args: { ms: 20 } },
            ],
          },
          { text: 'rested' },
        ],
        { scheduler },
      );
      const agent = new ReActAgent({ model, tools: [sleep as Tool] });
      log = timeline(scheduler, agent.stream('rest'), (e) => ('callId' in e ? `${e.type} ${e.callId}` : e.type));
    });
    expect(spans).toEqual([
      { callId: 'a', start: 0, end: 30 },
      { callId: 'b', start: 30, end: 40 },
      { callId: 'c', start: 40, end: 60 },
    ]);
    expect(log.filter((l) => /Action|ToolCall/.test(l))).toEqual([
      '0 ActionStart',
      '0 ToolCallStart a',
      '30 ToolCallEnd a',
      '30 ToolCallStart b',
      '40 ToolCallEnd b',
      '40 ToolCallStart c',
      '60 ToolCallEnd c',
      '60 ActionEnd',
    ]);
    expect(log.at(-1)).toBe('60 |');
  });
});
