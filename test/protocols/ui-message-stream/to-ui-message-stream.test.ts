import { readUIMessageStream, type UIMessage, type UIMessageChunk } from 'ai';
import fc from 'fast-check';
import { concat, from, lastValueFrom, Observable, throwError, toArray } from 'rxjs';
import { describe, expect, it } from 'vitest';
import type { AgentEvent } from '../../../src/events/agent-event.js';
import type { UiMessageChunk } from '../../../src/protocols/ui-message-stream/ui-message-chunk.js';
import { toUiMessageStream } from '../../../src/protocols/ui-message-stream/to-ui-message-stream.js';
import { runEnd, wrap } from '../../support/event-fixtures.js';
import { eventsOf, mainRun } from '../run-scripts.js';

const chunksOf = (source: Observable<AgentEvent>): Promise<UiMessageChunk[]> => lastValueFrom(source.pipe(toUiMessageStream(), toArray()));

/** The message the `ai` package builds from the chunks (it validates each), and the errors it reported. */
async function built(chunks: readonly UiMessageChunk[]): Promise<{ message: UIMessage | undefined; errors: unknown[] }> {
  const errors: unknown[] = [];
  const stream = new ReadableStream<UIMessageChunk>({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(chunk as UIMessageChunk);
      controller.close();
    },
  });
  let message: UIMessage | undefined;
  for await (const state of readUIMessageStream<UIMessage>({ stream, onError: (error) => errors.push(error) })) message = state;
  return { message, errors };
}

describe('toUiMessageStream', () => {
  it('ends every stream with one finish or one error, and the ai package builds the message: one data-task part per task, in its final state', async () => {
    await fc.assert(
      fc.asyncProperty(mainRun, async ({ plan, cut, cutAt }) => {
        const events = eventsOf(plan, 'run_main', 'main');
        const kept = cut === 'none' ? events : events.slice(0, cutAt % events.length);
        const source = cut === 'error' ? concat(from(kept), throwError(() => new Error('the stream broke'))) : from(kept);
        const chunks = await chunksOf(source);
        expect(chunks[0]!.type).toBe('start');
        const last = chunks.at(-1)!;
        expect(chunks.filter((c) => c.type === 'finish')).toHaveLength(cut === 'none' ? 1 : 0);
        expect(last.type).toBe(cut === 'none' ? 'finish' : 'error');
        const { message, errors } = await built(chunks);
        // an error chunk is what the run's failure is reported as; nothing else may fail
        expect(errors.length).toBe(chunks.filter((c) => c.type === 'error').length);
        if (cut !== 'none') return;
        const tasks = events.flatMap((e) => {
          // the innermost wrapper names the task whose own end this is (a grandchild's too)
          let wrapper = e;
          while (wrapper.type === 'TaskWrap' && wrapper.event.type === 'TaskWrap') wrapper = wrapper.event;
          const end = wrapper.type === 'TaskWrap' ? wrapper.event : undefined;
          return wrapper.type === 'TaskWrap' && (end?.type === 'RunEnd' || end?.type === 'RunCancelled') ? [[wrapper.taskId, end] as const] : [];
        });
        const parts = (message?.parts ?? []).filter((p) => p.type === 'data-task') as Array<{ id: string; data: { state: string } }>;
        expect(parts.map((p) => p.id).sort()).toEqual(tasks.map(([id]) => id).sort());
        for (const [id, end] of tasks) {
          const state = end.type === 'RunCancelled' ? 'cancelled' : end.abnormal ? 'failed' : 'done';
          expect(parts.find((p) => p.id === id)!.data.state).toBe(state);
        }
      }),
      { numRuns: 200 },
    );
  });

  it("never finishes at a child's RunEnd: the child's part says done, and the main run's text after it still comes", async () => {
    const child = (event: AgentEvent) => wrap(event, { parentRunId: 'r1', taskId: 'task_a', runId: 'c1' });
    const chunks = await chunksOf(
      from<AgentEvent[]>([
        { type: 'RunStart', runId: 'r1', agentName: 'main', sessionId: 's', prompt: 'p' },
        child({ type: 'RunStart', runId: 'c1', agentName: 'alpha', sessionId: 'task_a', prompt: 'q' }),
        child(runEnd('c1', 'alpha', 'child answer')),
        { type: 'ReasonStart', runId: 'r1', agentName: 'main', step: 2 },
        { type: 'ReasonDelta', runId: 'r1', agentName: 'main', step: 2, kind: 'text', text: 'after the child' },
        runEnd('r1', 'main', 'after the child'),
      ]),
    );
    expect(chunks.map((c) => c.type)).toEqual(['start', 'data-task', 'data-task', 'start-step', 'text-start', 'text-delta', 'text-end', 'finish-step', 'finish']);
    expect(chunks[2]).toMatchObject({ id: 'task_a', data: { state: 'done', answer: 'child answer' } });
  });
});
