import { lastValueFrom, toArray } from 'rxjs';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { HarnessEngine } from '../../src/engine/harness-engine.js';
import { ScriptedModel } from '../../src/model/scripted-model.js';
import type { SequencedEvent } from '../../src/runs/run-types.js';
import { testAgent } from '../support/agent-turns.js';
import { createGate } from '../support/deferred.js';
import { scriptedRoutes, scriptedSteps } from '../support/scripted-routes.js';
import { makeWorkspace, type TestWorkspace } from '../support/tool-context.js';
import { createTestScheduler } from '../support/virtual-time.js';

let ws: TestWorkspace | undefined;
afterEach(async () => {
  vi.useRealTimers();
  await ws?.cleanup();
  ws = undefined;
});

async function engineWith(model: ScriptedModel, options: Partial<ConstructorParameters<typeof HarnessEngine>[0]> = {}): Promise<HarnessEngine> {
  ws ??= await makeWorkspace();
  return new HarnessEngine({ model, workspace: ws.dir, homeDir: ws.home, ...options });
}

const seqs = (events: readonly SequencedEvent[]) => events.map((e) => e.seq);

describe('engine.start(): a run that lives on its own', () => {
  it('attach at every seq of a live run (virtual time): each attachment sees exactly the rest, then completes', async () => {
    const scheduler = createTestScheduler();
    const model = new ScriptedModel([{ text: 'one two three four five six', chunkSize: 4, chunkDelayMs: 10 }], { scheduler });
    const engine = await engineWith(model);
    const seen: number[][] = [];
    let total = 0;
    scheduler.run(({ flush }) => {
      const run = engine.start('go');
      const all: number[] = [];
      run.events$.subscribe((e) => all.push(e.seq));
      // Attach at every virtual millisecond of the run, each from the position reached so far.
      for (let t = 0; t <= 80; t += 5) {
        scheduler.schedule(() => {
          const after = all.length;
          const mine: number[] = [];
          seen.push(mine);
          mine.push(after);
          engine.runs.attach(run.runId, { after }).subscribe({ next: (e) => mine.push(e.seq), complete: () => mine.push(-1) });
        }, t);
      }
      flush();
      total = all.length;
    });
    expect(total).toBeGreaterThan(8);
    for (const [after, ...rest] of seen) {
      expect(rest).toEqual([...Array.from({ length: total - after! }, (_, i) => after! + i + 1), -1]);
    }
  });

  it('is hot and registered; leaving an attachment never stops it; stream() and call() stay cold and unregistered', async () => {
    const gate = createGate();
    const slow = { name: 'wait', description: 'Waits.', parameters: { type: 'object' }, execute: () => gate.promise.then(() => 'waited') };
    const model = new ScriptedModel(scriptedRoutes({ main: scriptedSteps({ toolCalls: [{ name: 'wait', args: {} }] }) }));
    const engine = await engineWith(model, { tools: [slow] });
    const run = engine.start('go');
    const early = run.events$.subscribe();
    early.unsubscribe();
    expect(engine.runs.get(run.runId)).toMatchObject({ state: 'running', agentName: 'main', sessionId: run.sessionId });
    gate.open();
    const result = await run.result;
    expect(result).toMatchObject({ runId: run.runId, sessionId: run.sessionId, abnormal: false, text: 'final: waited' });
    expect(engine.runs.get(run.runId)).toMatchObject({ state: 'done', endedAt: expect.any(Number) });
    const replay = await lastValueFrom(engine.runs.attach(run.runId).pipe(toArray()));
    expect(seqs(replay)).toEqual(replay.map((_, i) => i + 1));
    expect(replay.at(-1)!.event).toMatchObject({ type: 'RunEnd' });
    await engine.call('cold');
    expect(engine.runs.list().map((r) => r.runId)).toEqual([run.runId]);
    // The session is kept: the conversation can go on.
    expect(await engine.call('again', { sessionId: run.sessionId })).toMatchObject({ abnormal: false });
  });

  it('cancel: attachments error with AbortError after the events so far; the result rejects; state cancelled', async () => {
    const model = new ScriptedModel([{ text: 'never', delayMs: 60_000 }]);
    const engine = await engineWith(model);
    const run = engine.start('go');
    const attached = lastValueFrom(engine.runs.attach(run.runId).pipe(toArray()));
    expect(engine.runs.cancel(run.runId)).toBe(true);
    expect(engine.runs.cancel(run.runId)).toBe(false);
    await expect(attached).rejects.toMatchObject({ name: 'AbortError' });
    await expect(run.result).rejects.toMatchObject({ name: 'AbortError' });
    expect(engine.runs.get(run.runId)?.state).toBe('cancelled');
    await expect(lastValueFrom(engine.runs.attach(run.runId))).rejects.toMatchObject({ name: 'AbortError' });
  });

  it('an approval asked in a nested task waits for runs.answer; cancelling rejects what still waits (fail-closed)', async () => {
    const model = new ScriptedModel(
      scriptedRoutes({
        main: scriptedSteps({ toolCalls: [{ name: 'task', args: { agent_name: 'worker', prompt: 'p', description: 'd' } }] }),
        worker: scriptedSteps({ toolCalls: [{ id: 'c-bash', name: 'bash', args: { command: 'echo approved' } }] }),
      }),
    );
    const engine = await engineWith(model);
    engine.agents.add(testAgent('worker'));
    const run = engine.start('go');
    const pending = await new Promise<SequencedEvent>((resolve) =>
      run.events$.subscribe((e) => e.event.type === 'TaskWrap' && e.event.event.type === 'HITLPending' && resolve(e)),
    );
    // (A cancelled run's attachments error with AbortError: the second one below ignores it.)
    expect(pending.event).toMatchObject({ type: 'TaskWrap', event: { callId: 'c-bash' } });
    const { approvalId } = (pending.event as { event: { approvalId: string } }).event;
    expect(engine.runs.pendingApprovals(run.runId)).toMatchObject([{ approvalId, callId: 'c-bash', agentName: 'worker' }]);
    expect(engine.runs.answer(run.runId, 'nope', { decision: 'approve' })).toBe(false);
    expect(engine.runs.answer(run.runId, 'c-bash', { decision: 'approve' })).toBe(false); // a call id names no approval
    expect(engine.runs.answer(run.runId, approvalId, { decision: 'approve' }, null)).toBe(false); // not the main agent's
    expect(engine.runs.answer(run.runId, approvalId, { decision: 'approve' })).toBe(true);
    expect(engine.runs.pendingApprovals(run.runId)).toEqual([]);
    const result = await run.result;
    expect(result.text).toContain('approved');

    const second = engine.start('go again');
    const secondId = await new Promise<string>((resolve) =>
      second.events$.subscribe({ next: (e) => e.event.type === 'TaskWrap' && e.event.event.type === 'HITLPending' && resolve(e.event.event.approvalId), error: () => undefined }),
    );
    engine.runs.cancel(second.runId);
    await expect(second.result).rejects.toMatchObject({ name: 'AbortError' });
    expect(engine.runs.answer(second.runId, secondId, { decision: 'approve' })).toBe(false);
  });

  it('keeps at most maxRetainedRuns finished runs, and none past runRetentionMs', async () => {
    const engine = await engineWith(new ScriptedModel(() => ({ text: 'ok' })), { maxRetainedRuns: 2 });
    const ids = [];
    for (let i = 0; i < 4; i++) {
      const run = engine.start(`run ${i}`);
      await run.result;
      ids.push(run.runId);
    }
    expect(engine.runs.list().map((r) => r.runId)).toEqual(ids.slice(2));
    expect(engine.runs.get(ids[0]!)).toBeUndefined();
    await expect(lastValueFrom(engine.runs.attach(ids[0]!))).rejects.toMatchObject({ name: 'UnknownRunError' });
    // Expiry reads the monotonic clock: faked (and only it), so the run is looked at exactly
    // at the end of its retention and one millisecond past it, however loaded the machine is
    // (a real sleep could not say which side of the bound it looked at).
    vi.useFakeTimers({ toFake: ['performance'] });
    const quick = await engineWith(new ScriptedModel(() => ({ text: 'ok' })), { runRetentionMs: 50 });
    const gone = quick.start('x');
    await gone.result;
    vi.advanceTimersByTime(50);
    expect(quick.runs.get(gone.runId)?.state).toBe('done'); // kept for the whole retention
    vi.advanceTimersByTime(1);
    expect(quick.runs.get(gone.runId)).toBeUndefined();
  });

  it('refuses at once: an empty prompt, an unknown agent, a busy session, a closed engine', async () => {
    const gate = createGate();
    const model = new ScriptedModel(() => ({ text: 'ok', delayMs: 5 }));
    const engine = await engineWith(model);
    expect(() => engine.start('  ')).toThrow(TypeError);
    expect(() => engine.start('hi', { agentName: 'ghost' })).toThrow(/unknown agent "ghost"/);
    const first = engine.start('hi', { sessionId: 's' });
    expect(() => engine.start('hi', { sessionId: 's' })).toThrow(expect.objectContaining({ name: 'SessionBusyError' }) as never);
    expect(engine.runs.list()).toHaveLength(1);
    await first.result;
    void gate;
    await engine.close();
    expect(() => engine.start('hi')).toThrow(expect.objectContaining({ name: 'EngineClosedError' }) as never);
  });
});
