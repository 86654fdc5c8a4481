/**
 * A child's first `RunEnd` is its answer and its last event, wherever it runs. A launcher
 * elsewhere (a hostile worker, a record planted in its log) may go on after it: a second
 * `RunEnd`, a `RunCancelled`, or nothing at all, never completing. A foreground child's
 * extra events reached the parent's stream (three terminal events for one child, its tree
 * node `cancelled` while the task was `done`), and its task call waited for a completion that
 * never came. Now neither the parent's stream nor the background log gets anything after the
 * first `RunEnd`, and the foreground task answers at it, tearing the child's stream down.
 */
import { Observable, Subject } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { createTreeState, reduceTree, treeRows } from '../../src/adapters/task-tree/index.js';
import type { ChildLauncher, ChildRun } from '../../src/delegation/run-child.js';
import { superviseChild, type Ended } from '../../src/delegation/supervise-child.js';
import { TaskTracker } from '../../src/delegation/task-tracker.js';
import type { HarnessBackend } from '../../src/engine/harness-backend.js';
import { HarnessEngine } from '../../src/engine/harness-engine.js';
import type { AgentEvent } from '../../src/events/agent-event.js';
import { EMPTY_METRICS } from '../../src/events/run-metrics.js';
import type { ChatRequest } from '../../src/model/chat-model.js';
import { ScriptedModel } from '../../src/model/scripted-model.js';
import { MemoryEventLog } from '../../src/runs/memory-event-log.js';
import { MemorySessionStore } from '../../src/session/memory-session-store.js';
import { testAgent } from '../support/agent-turns.js';
import { taskArgs } from '../support/delegation-script.js';
import { toolContextPerTest } from '../support/tool-context-per-test.js';

const fresh = toolContextPerTest();

const ids = { runId: 'run_child', agentName: 'helper' };
const runStart = (child: ChildRun): AgentEvent => ({ ...ids, type: 'RunStart', sessionId: child.taskId, prompt: child.prompt });
const runEnd = (text: string): AgentEvent => ({ ...ids, type: 'RunEnd', text, abnormal: false, metrics: { ...EMPTY_METRICS, promptTokens: 3 }, steps: 1 });

/** What a launcher's stream did: how many subscribed, how many were torn down. */
interface Counts {
  subscribed: number;
  tornDown: number;
}

/**
 * A launcher whose child ends twice and is then cancelled (`'twice'`), or ends once and
 * never completes (`'open'`), counting its subscriptions and teardowns.
 */
function launcherOf(kind: 'twice' | 'open', counts: Counts): ChildLauncher {
  return {
    run$: (child) =>
      new Observable<AgentEvent>((out) => {
        counts.subscribed += 1;
        out.next(runStart(child));
        out.next(runEnd('first answer'));
        if (kind === 'twice') {
          out.next(runEnd('second answer'));
          out.next({ ...ids, type: 'RunCancelled', reason: 'after the end' });
          out.complete();
        }
        return () => void (counts.tornDown += 1);
      }),
  };
}

function backendOf(launcher: ChildLauncher): HarnessBackend {
  return {
    sessions: new MemorySessionStore(),
    eventLog: new MemoryEventLog(),
    runs: { publish() {}, forget() {}, get: () => undefined, list: () => [], cancel: () => false, answer: () => false, serve: () => () => {} },
    createTracker: (limits) => new TaskTracker(limits),
    childLauncher: () => launcher,
  };
}

/** An engine whose main agent delegates one task to `helper` on `launcher`, then says `done`; `requests`: what its model was asked. */
function engineOf(launcher: ChildLauncher, background: boolean): { engine: HarnessEngine; requests: ChatRequest[] } {
  const requests: ChatRequest[] = [];
  const model = new ScriptedModel((request) => {
    requests.push(request);
    return requests.length === 1 ? { toolCalls: [{ name: 'task', args: { ...taskArgs('helper', 'do it'), background } }] } : { text: 'done' };
  });
  const engine = new HarnessEngine({ model, workspace: fresh.ws.dir, homeDir: fresh.ws.home, backend: backendOf(launcher), distributeTasks: true });
  engine.agents.add(testAgent('helper'));
  return { engine, requests };
}

/** The parent's run, its events collected; `done` once it completes. */
function streamed(engine: HarnessEngine): { events: AgentEvent[]; done: () => boolean; failure: () => unknown } {
  const events: AgentEvent[] = [];
  let completed = false;
  let failure: unknown;
  engine.stream('go').subscribe({ next: (e) => events.push(e), error: (e: unknown) => (failure = e), complete: () => (completed = true) });
  return { events, done: () => completed, failure: () => failure };
}

const wrappedTypes = (events: readonly AgentEvent[]): string[] => events.flatMap((e) => (e.type === 'TaskWrap' ? [e.event.type] : []));
const terminal = (type: string): boolean => type === 'RunEnd' || type === 'RunCancelled';
/** What the parent's model read as the task's result (the last message of its second request). */
const toolResult = (requests: readonly ChatRequest[]): string => JSON.stringify(requests[1]?.messages.at(-1));

describe("a child's events after its first RunEnd", () => {
  it('are not delivered by superviseChild: the first RunEnd is the last event and the answer', () => {
    const run$ = new Subject<AgentEvent>();
    const seen: { type: string; answer?: string }[] = [];
    const settled: Ended[] = [];
    superviseChild('helper', run$, new Subject<void>(), {
      event: (event, ended) => seen.push({ type: event.type, ...(ended && { answer: ended.outcome.content }) }),
      settle: (ended) => settled.push(ended),
    });
    run$.next({ ...ids, type: 'RunStart', sessionId: 's', prompt: 'p' });
    run$.next(runEnd('first answer'));
    run$.next(runEnd('second answer'));
    run$.next({ ...ids, type: 'RunCancelled', reason: 'after the end' });
    run$.next({ ...ids, type: 'Warning', code: 'late', message: 'after the end' } as AgentEvent);
    run$.complete();
    expect(seen).toEqual([{ type: 'RunStart' }, { type: 'RunEnd', answer: 'first answer' }]);
    expect(settled.map((e) => [e.state, e.outcome.content])).toEqual([['done', 'first answer']]);
  });

  it("of a foreground child never reach the parent's stream: one terminal event, the first answer, the node done", async () => {
    const counts: Counts = { subscribed: 0, tornDown: 0 };
    const { engine, requests } = engineOf(launcherOf('twice', counts), false);
    const run = streamed(engine);
    await expect.poll(run.done).toBe(true);
    expect(run.failure()).toBeUndefined();
    expect(wrappedTypes(run.events).filter(terminal)).toEqual(['RunEnd']);
    expect(run.events.flatMap((e) => (e.type === 'TaskWrap' && e.event.type === 'RunEnd' ? [e.event.text] : []))).toEqual(['first answer']);
    const tree = run.events.reduce((state, e, i) => reduceTree(state, e, i), createTreeState());
    expect(treeRows(tree).map(({ node }) => `${node.agentName}:${node.status}`)).toEqual(['main:done', 'helper:done']);
    expect(engine.tasks.list().map((t) => [t.state, t.result])).toEqual([['done', 'first answer']]);
    expect(toolResult(requests)).toContain('first answer');
    expect(toolResult(requests)).not.toContain('second answer');
    await engine.close();
  });

  it('of a background child are not logged: its log keeps one terminal event', async () => {
    const counts: Counts = { subscribed: 0, tornDown: 0 };
    const { engine } = engineOf(launcherOf('twice', counts), true);
    const run = streamed(engine);
    await expect.poll(run.done).toBe(true);
    const [task] = engine.tasks.list();
    expect(task).toMatchObject({ state: 'done', result: 'first answer' });
    expect(engine.tasks.events(task!.taskId).map((e) => e.type)).toEqual(['RunStart', 'RunEnd']);
    await engine.close();
  });

  it("of a foreground child that never completes: the parent's run goes on with the answer, the child's stream torn down", async () => {
    const counts: Counts = { subscribed: 0, tornDown: 0 };
    const { engine, requests } = engineOf(launcherOf('open', counts), false);
    const run = streamed(engine);
    // The task answers at the RunEnd: the parent asks its model again and ends.
    await expect.poll(run.done).toBe(true);
    expect(run.events.at(-1)).toMatchObject({ type: 'RunEnd', agentName: 'main', abnormal: false, text: 'done' });
    expect(toolResult(requests)).toContain('first answer');
    expect(engine.tasks.list().map((t) => [t.state, t.result])).toEqual([['done', 'first answer']]);
    // Whatever the child still ran is stopped, not left subscribed for ever.
    expect(counts).toEqual({ subscribed: 1, tornDown: 1 });
    await engine.close();
  });
});
