import { filter, firstValueFrom } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { isTaskWrap } from '../../src/events/guards.js';
import type { AgentEvent, TaskWrapEvent } from '../../src/events/agent-event.js';
import { testAgent } from '../support/agent-turns.js';
import { collect, own, record, wraps } from '../support/collect-events.js';
import { settled } from '../support/lifecycle-script.js';
import { offlineEnginePerTest } from '../support/offline-engine.js';
import { scriptedSteps } from '../support/scripted-routes.js';

const offline = offlineEnginePerTest();

const multitask = (tasks: readonly [number, string][]) => ({
  toolCalls: [{ name: 'multitask', args: { tasks: tasks.map(([index, agent_name]) => ({ index, agent_name, prompt: `job ${index}`, description: `task ${index}` })) } }],
});

describe('every task of a multitask is visible, refused ones too', () => {
  it('an unknown agent and a denied one each get a wrapped RunStart and an abnormal RunEnd, and count in metrics.tasks', async () => {
    const o = await offline(
      { main: scriptedSteps(multitask([[1, 'alpha'], [2, 'ghost'], [3, 'secret'], [4, 'alpha']])), alpha: (t) => ({ text: `did ${t.prompt}` }) },
      [testAgent('alpha'), testAgent('secret')],
      { permissionRules: [{ tool: 'task', action: 'deny', pattern: 'secret' }] },
    );
    const events = await collect(o.engine.stream('go'));
    const byIndex = new Map<number, TaskWrapEvent[]>();
    for (const w of wraps(events)) byIndex.set(w.taskIndex, [...(byIndex.get(w.taskIndex) ?? []), w]);
    expect([...byIndex.keys()].sort()).toEqual([1, 2, 3, 4]);
    for (const index of [2, 3]) {
      const rows = byIndex.get(index)!;
      expect(rows.map((w) => w.event.type)).toEqual(['RunStart', 'RunEnd']);
      expect(new Set(rows.map((w) => w.taskId)).size).toBe(1);
      expect(rows[0]!.taskId).toMatch(/^task_/);
    }
    expect(byIndex.get(2)!.at(-1)!.event).toMatchObject({ abnormal: true, error: expect.stringMatching(/^unknown agent "ghost"/) });
    expect(byIndex.get(3)!.at(-1)!.event).toMatchObject({ abnormal: true, error: expect.stringMatching(/^delegating to "secret" is denied/) });
    // Distinct rows: four task ids.
    expect(new Set(wraps(events).map((w) => w.taskId)).size).toBe(4);
    expect(own(events, 'RunEnd')[0]!.metrics.tasks).toBe(4);
  });

  it('under call() nothing is wrapped, but the refused tasks still count', async () => {
    const o = await offline({ main: scriptedSteps(multitask([[1, 'alpha'], [2, 'ghost']])), alpha: () => ({ text: 'ok' }) }, [testAgent('alpha')]);
    const result = await o.engine.call('go');
    expect(result.metrics.tasks).toBe(2);
  });
});

describe('a cancelled child ends its wrapped stream with RunCancelled', () => {
  it('cancelTask on a running foreground task: RunCancelled is its last wrapped event, then the parent goes on', async () => {
    const o = await offline(
      { main: scriptedSteps({ toolCalls: [{ name: 'task', args: { agent_name: 'alpha', prompt: 'slow', description: 'slow one' } }] }), alpha: () => ({ text: 'late', delayMs: 60_000 }) },
      [testAgent('alpha')],
    );
    const started = firstValueFrom(o.engine.tasks.changes.pipe(filter((t) => t.state === 'running')));
    const recording = record(o.engine.stream('go'));
    const start = await started;
    expect(o.engine.cancelTask(start.taskId)).toBe(true);
    await recording.done;
    const child = wraps(recording.events).filter((w) => w.taskId === start.taskId);
    expect(child.at(-1)!.event).toMatchObject({ type: 'RunCancelled', runId: child[0]!.event.runId, reason: expect.stringContaining('was cancelled') });
    expect(child.some((w) => w.event.type === 'RunEnd')).toBe(false);
    const taskEnd = recording.events.findIndex((e) => e.type === 'ToolCallEnd');
    expect(recording.events.findIndex((e) => isTaskWrap(e) && e.event.type === 'RunCancelled')).toBeLessThan(taskEnd);
    expect(recording.events.at(-1)).toMatchObject({ type: 'RunEnd', agentName: 'main' });
  });

  it('a cancelled background task\'s event log ends with RunCancelled', async () => {
    const o = await offline(
      { main: scriptedSteps({ toolCalls: [{ name: 'task', args: { agent_name: 'alpha', prompt: 'slow', description: 'bg', background: true } }] }), alpha: () => ({ text: 'late', delayMs: 60_000 }) },
      [testAgent('alpha')],
    );
    await o.engine.call('go', { sessionId: 's' });
    const [task] = o.engine.tasks.list();
    o.engine.cancelTask(task!.taskId);
    await settled(o.engine.tasks, task!.taskId);
    const log: readonly AgentEvent[] = o.engine.tasks.events(task!.taskId);
    expect(log[0]?.type).toBe('RunStart');
    expect(log.at(-1)).toMatchObject({ type: 'RunCancelled', runId: log[0]!.runId });
  });
});

describe('background results are truncated like foreground ones', () => {
  it('a 50,000-character background result reaches the next prompt cut at maxResultChars, with the marker', async () => {
    const long = 'x'.repeat(50_000);
    const o = await offline(
      {
        main: (turn) => (turn.prompt.endsWith('next') ? { text: 'ok' } : scriptedSteps({ toolCalls: [{ name: 'task', args: { agent_name: 'alpha', prompt: 'big', description: 'bg', background: true } }] })(turn)),
        alpha: () => ({ text: long, chunkSize: 100_000 }),
      },
      [testAgent('alpha')],
      { maxResultChars: 1000 },
    );
    await o.engine.call('start', { sessionId: 's' });
    const [task] = o.engine.tasks.list();
    await settled(o.engine.tasks, task!.taskId);
    await o.engine.call('next', { sessionId: 's' });
    const prompt = String(o.model.requests.at(-1)!.messages.findLast((m) => m.role === 'user')!.content);
    expect(prompt).toContain('[... 49000 characters truncated by rxharness ...]');
    expect(prompt.length).toBeLessThan(3000);
    // The tracker keeps the whole result for code that asks for it.
    expect(o.engine.tasks.get(task!.taskId)!.result).toHaveLength(50_000);
  });
});

describe('multitask has a cap on its tasks', () => {
  const many = (n: number) => ({
    toolCalls: [{ name: 'multitask', args: { tasks: Array.from({ length: n }, (_, i) => ({ index: i + 1, agent_name: 'alpha', prompt: 'p', description: 'd' })) } }],
  });

  it('20,000 tasks in one call are refused before any starts; the schema states the cap', async () => {
    const o = await offline({ main: scriptedSteps(many(20_000)), alpha: () => ({ text: 'ran' }) }, [testAgent('alpha')]);
    const events = await collect(o.engine.stream('go'));
    const end = own(events, 'ToolCallEnd')[0]!;
    expect(end.error).toMatch(/"tasks" must NOT have more than 200 items/);
    expect(wraps(events)).toEqual([]);
    expect(o.model.requests.filter((r) => String(r.messages[0]?.content).startsWith('You are alpha'))).toEqual([]);
    const schema = o.model.requests[0]!.tools!.find((t) => t.name === 'multitask')!.parameters as { properties: { tasks: { maxItems: number } } };
    expect(schema.properties.tasks.maxItems).toBe(200);
  });

  it('multitaskMaxItems sets it: 3 pass, 4 are refused', async () => {
    const o = await offline({ main: (t) => scriptedSteps(many(t.prompt === 'three' ? 3 : 4))(t), alpha: () => ({ text: 'ran' }) }, [testAgent('alpha')], { multitaskMaxItems: 3 });
    expect((await o.engine.call('three')).metrics.tasks).toBe(3);
    const events = await collect(o.engine.stream('four'));
    expect(own(events, 'ToolCallEnd')[0]!.error).toMatch(/must NOT have more than 3 items/);
  });
});
