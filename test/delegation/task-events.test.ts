import { lastValueFrom } from 'rxjs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AgentEvent, TaskWrapEvent } from '../../src/events/agent-event.js';
import { terminalRunEnd } from '../../src/events/operators/terminal-run-end.js';
import { testAgent } from '../support/agent-turns.js';
import { collect, own, wraps } from '../support/collect-events.js';
import { startDelegationFixture, type DelegationFixture } from '../support/delegation-fixture.js';
import { steps, taskReply } from '../support/delegation-script.js';

let f: DelegationFixture;

beforeEach(async () => {
  f = await startDelegationFixture({
    main: steps(taskReply('alpha', 'count the files', 'Count files')),
    alpha: (turn) => ({ text: `alpha says: ${turn.prompt}` }),
  });
});
afterEach(() => f.close());

const label = (e: AgentEvent): string => (e.type === 'TaskWrap' ? `W:${e.event.type}` : e.type);

describe('task, streamed', () => {
  it('emits the child run wrapped between the unwrapped ToolCallStart and ToolCallEnd of the task call', async () => {
    const events = await collect(f.engine({}, [testAgent('alpha')]).stream('please delegate'));
    const labels = events.map(label);
    const start = events.findIndex((e) => e.type === 'ToolCallStart' && e.toolName === 'task');
    const end = events.findIndex((e) => e.type === 'ToolCallEnd' && e.toolName === 'task');
    expect(start).toBeGreaterThan(labels.indexOf('ActionStart'));
    expect(end).toBeGreaterThan(start);
    // Every wrapped event sits inside the call, and nothing else does.
    const inside = labels.slice(start + 1, end);
    expect(inside.every((l) => l.startsWith('W:'))).toBe(true);
    expect(wraps(events)).toHaveLength(inside.length);
    expect(inside[0]).toBe('W:RunStart');
    expect(inside.at(-1)).toBe('W:RunEnd');
    expect(inside).toContain('W:ReasonDelta');
    expect(labels[end + 1]).toBe('ActionEnd');
    // The parent's own frame: RunStart first, exactly one unwrapped RunEnd, last.
    expect(labels[0]).toBe('RunStart');
    expect(labels.filter((l) => l === 'RunEnd')).toHaveLength(1);
    expect(labels.at(-1)).toBe('RunEnd');
  });

  it('fills every TaskWrap with the child run, the parent run and the task', async () => {
    const events = await collect(f.engine({}, [testAgent('alpha')]).stream('please delegate'));
    const parentRunId = events[0]!.runId;
    const wrapped = wraps(events);
    const childStart = wrapped[0]!.event;
    expect(childStart.type).toBe('RunStart');
    const first = wrapped[0] as TaskWrapEvent;
    expect(first.taskId).toMatch(/^task_/);
    expect(childStart.runId).not.toBe(parentRunId);
    for (const w of wrapped) {
      expect(w).toMatchObject({
        type: 'TaskWrap',
        runId: childStart.runId,
        agentName: 'alpha',
        parentRunId,
        taskId: first.taskId,
        taskIndex: 1,
        taskAgentName: 'alpha',
        taskDescription: 'Count files',
        multitask: false,
      });
      expect(w.event.runId).toBe(childStart.runId);
      expect(w.event.agentName).toBe('alpha');
    }
    // The child session is the task id; its prompt is the `prompt` argument.
    expect(childStart).toMatchObject({ sessionId: first.taskId, prompt: 'count the files' });
    const childEnd = wrapped.at(-1)!.event;
    expect(childEnd).toMatchObject({ type: 'RunEnd', abnormal: false, text: 'alpha says: count the files' });
    // The parent's own events carry the parent's run.
    for (const e of events.filter((x) => x.type !== 'TaskWrap')) expect(e).toMatchObject({ runId: parentRunId, agentName: 'main' });
  });

  it('returns a <task_result> the parent model reads, with the task id of the wrapped events', async () => {
    const events = await collect(f.engine({}, [testAgent('alpha')]).stream('please delegate'));
    const taskId = wraps(events)[0]!.taskId;
    const end = own(events, 'ToolCallEnd')[0]!;
    expect(end.error).toBeUndefined();
    expect(end.text).toBe(
      '<task_result><description>Count files</description><agent_name>alpha</agent_name>' +
        `<task_id>${taskId}</task_id><result_status>success</result_status>` +
        '<result_content><![CDATA[alpha says: count the files]]></result_content></task_result>',
    );
    // What the main model read next is exactly that text.
    const second = f.requestsOf('main')[1]!;
    expect(second.body.messages?.at(-1)).toMatchObject({ role: 'tool', content: end.text });
  });

  it('terminalRunEnd picks the parent run end, never the wrapped child one', async () => {
    const engine = f.engine({}, [testAgent('alpha')]);
    const end = await lastValueFrom(engine.stream('please delegate').pipe(terminalRunEnd()));
    expect(end.agentName).toBe('main');
    expect(end.text).toContain('final: <task_result>');
    expect(end.metrics.tasks).toBe(1);
  });
});

describe('task, not streamed', () => {
  it('call() still runs the child and returns the result that holds its answer', async () => {
    const result = await f.engine({}, [testAgent('alpha')]).call('please delegate');
    expect(result.abnormal).toBe(false);
    expect(result.text).toContain('<![CDATA[alpha says: count the files]]>');
    expect(result.metrics.tasks).toBe(1);
    expect(f.requestsOf('alpha')).toHaveLength(1);
  });

  it('a quiet run (what call() runs) forwards nothing: no TaskWrap, no deltas', async () => {
    const events = await collect(f.engine({}, [testAgent('alpha')]).agent().run$('please delegate', { streaming: false }));
    expect(events.some((e) => e.type === 'TaskWrap' || e.type === 'ReasonDelta')).toBe(false);
    expect(own(events, 'ToolCallEnd')[0]!.text).toContain('alpha says: count the files');
    expect(f.requestsOf('alpha')).toHaveLength(1);
  });
});
