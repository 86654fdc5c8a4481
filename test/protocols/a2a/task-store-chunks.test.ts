import { TaskState } from '@a2a-js/sdk';
import { AgentEvent, ResultManager, ServerCallContext } from '@a2a-js/sdk/server';
import { describe, expect, it } from 'vitest';
import { textArtifact, statusOf } from '../../../src/protocols/a2a/a2a-values.js';
import { BoundedTaskStore } from '../../../src/protocols/a2a/bounded-task-store.js';
import { cpuTimeMs } from '../../support/cpu-time.js';

/**
 * The SDK's ResultManager stores each update of a task by loading the whole task from the
 * store, adding to it and saving it back (a copy each way). A long run streams its answer in
 * thousands of chunks: were each kept as a part of its own, every update would copy them
 * all, and the run's cost would grow with the square of its length.
 */
describe('BoundedTaskStore: an answer streamed in many chunks', () => {
  it('5,000 appended chunks, applied by the SDK, are stored in linear time as one text part; tasks/get reads the same text', async () => {
    const store = new BoundedTaskStore(10);
    const context = new ServerCallContext();
    const results = new ResultManager(store, context);
    await results.processEvent(AgentEvent.task({ id: 't1', contextId: 'c1', status: statusOf(TaskState.TASK_STATE_WORKING), artifacts: [], history: [], metadata: undefined }));
    const piece = (i: number): string => `c${String(i).padStart(4, '0')};`;
    const budgetMs = 3_000;
    const started = cpuTimeMs(); // CPU time: a busy machine stretches the wall clock, not this
    let applied = 0;
    for (let i = 0; i < 5_000 && cpuTimeMs() - started < budgetMs; i++, applied++) {
      const artifact = textArtifact('answer', 'answer', 'The answer', piece(i));
      await results.processEvent(AgentEvent.artifactUpdate({ taskId: 't1', contextId: 'c1', artifact, append: i > 0, lastChunk: false, metadata: undefined }));
    }
    expect(applied).toBe(5_000);
    const task = await store.load('t1', context);
    const text = Array.from({ length: 5_000 }, (_, i) => piece(i)).join('');
    expect(task!.artifacts[0]!.parts).toEqual([{ content: { $case: 'text', value: text }, metadata: undefined, filename: '', mediaType: 'text/plain' }]);
  });

  it('keeps apart what joining would change: parts of other media types, and parts with metadata', async () => {
    const store = new BoundedTaskStore(10);
    const context = new ServerCallContext();
    const [a, b] = textArtifact('x', 'x', '', 'a').parts.concat(textArtifact('x', 'x', '', 'b').parts);
    const parts = [a!, { ...b!, mediaType: 'text/markdown' }, { ...a!, metadata: { page: 2 } }, b!, a!];
    await store.save({ id: 't1', contextId: 'c1', status: statusOf(TaskState.TASK_STATE_WORKING), artifacts: [{ ...textArtifact('x', 'x', '', ''), parts }], history: [], metadata: undefined }, context);
    const stored = (await store.load('t1', context))!.artifacts[0]!.parts;
    expect(stored.map((p) => (p.content?.$case === 'text' ? p.content.value : ''))).toEqual(['a', 'b', 'a', 'ba']);
    expect(parts.map((p) => (p.content?.$case === 'text' ? p.content.value : ''))).toEqual(['a', 'b', 'a', 'b', 'a']); // the caller's task is left as it was
  });
});
