import { tap } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { isTaskWrap } from '../../src/events/guards.js';
import { testAgent } from '../support/agent-turns.js';
import { collect, own } from '../support/collect-events.js';
import { parseTaskResult } from '../support/lifecycle-script.js';
import { offlineEnginePerTest, type OfflineEngine } from '../support/offline-engine.js';
import { scriptedSteps } from '../support/scripted-routes.js';

let o: OfflineEngine;
const offline = offlineEnginePerTest();

const taskCall = (extra: Record<string, unknown> = {}) => ({
  toolCalls: [{ name: 'task', args: { agent_name: 'alpha', prompt: 'work', description: 'job', ...extra } }],
});

/** Which agents the model was asked for, in order. */
const askedAgents = (): string[] => o.model.requests.map((r) => (String(r.messages[0]?.content).includes('main agent') ? 'main' : 'alpha'));

describe('cancelling a task from code that reacts to it (re-entrant cancel)', () => {
  it('from a changes subscriber, as the task starts: it never runs and ends cancelled', async () => {
    o = await offline({ main: scriptedSteps(taskCall()), alpha: () => ({ text: 'ran anyway' }) }, [testAgent('alpha')]);
    const { engine } = o;
    engine.tasks.changes.subscribe((t) => {
      if (t.state === 'running') engine.cancelTask(t.taskId);
    });
    const events = await collect(engine.stream('go'));
    expect(events.at(-1)).toMatchObject({ type: 'RunEnd', agentName: 'main', abnormal: false });
    const result = parseTaskResult(own(events, 'ToolCallEnd')[0]!.text);
    expect(result).toMatchObject({ status: 'failure', content: expect.stringMatching(/^ERROR: .*cancelled/) });
    expect(engine.tasks.get(result.taskId)?.state).toBe('cancelled');
    expect(askedAgents()).toEqual(['main', 'main']);
  });

  it('from the stream consumer, on the child\'s wrapped RunStart: a wrapped RunCancelled closes it, and no child event follows its result', async () => {
    o = await offline({ main: scriptedSteps(taskCall()), alpha: () => ({ text: 'ran anyway' }) }, [testAgent('alpha')]);
    const { engine } = o;
    const cancelled: boolean[] = [];
    const events = await collect(
      engine.stream('go').pipe(
        tap((e) => {
          if (isTaskWrap(e) && e.event.type === 'RunStart') cancelled.push(engine.cancelTask(e.taskId));
        }),
      ),
    );
    expect(cancelled).toEqual([true]);
    expect(events.at(-1)).toMatchObject({ type: 'RunEnd', agentName: 'main', abnormal: false });
    const end = events.findIndex((e) => e.type === 'ToolCallEnd' && e.toolName === 'task');
    expect(parseTaskResult((events[end] as { text: string }).text).status).toBe('failure');
    expect(events.slice(end).some(isTaskWrap)).toBe(false);
    // In emission order even though the cancel came from inside RunStart's delivery.
    expect(events.filter(isTaskWrap).map((w) => w.event.type)).toEqual(['RunStart', 'RunCancelled']);
  });

  it('a background task cancelled as it starts ends cancelled, and that is what the next prompt gets', async () => {
    o = await offline(
      { main: (turn) => (turn.prompt.endsWith('next') ? { text: 'ok' } : scriptedSteps(taskCall({ background: true }))(turn)), alpha: () => ({ text: 'ran anyway' }) },
      [testAgent('alpha')],
    );
    const { engine } = o;
    engine.tasks.changes.subscribe((t) => {
      if (t.state === 'running') engine.cancelTask(t.taskId);
    });
    await engine.call('go', { sessionId: 's1' });
    const [task] = engine.tasks.list();
    expect(task).toMatchObject({ state: 'cancelled', background: true });
    expect(engine.tasks.events(task!.taskId)).toEqual([]);
    await engine.call('next', { sessionId: 's1' });
    expect(askedAgents()).toEqual(['main', 'main', 'main']);
    expect(String(o.model.requests.at(-1)!.messages.at(-1)!.content)).toContain('<result_status>failure</result_status>');
  });
});
