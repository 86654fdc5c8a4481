/**
 * `engine.close()` (and a conversation's delete) waits until each background task it cancels
 * has closed its turn in its session and given the session up, not only until the task is
 * marked cancelled (a1's finding: close() resolved ~100 ms before the child's closing write
 * and its lock's removal, so a process ending at close() lost them, and another engine found
 * the session busy).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { FileSessionStore } from '../../src/session/file-session-store.js';
import type { SessionStore } from '../../src/session/session-store.js';
import { testAgent } from '../support/agent-turns.js';
import { collect, own } from '../support/collect-events.js';
import { createGate } from '../support/deferred.js';
import { startDelegationFixture, type DelegationFixture } from '../support/delegation-fixture.js';
import { steps } from '../support/delegation-script.js';
import { storeHoldingWrites } from '../support/ending-run-store.js';
import { lifecycleTaskReply, parseTaskResult } from '../support/lifecycle-script.js';

let f: DelegationFixture;
const never = createGate(); // the child's model never answers: only the cancel ends it
afterEach(() => f.close());

/** Starts a background task of alpha in conversation s1 and waits until its model request is in flight; answers its id. */
async function startBackground(sessions: SessionStore): Promise<{ taskId: string; engine: ReturnType<DelegationFixture['engine']> }> {
  f.route({ main: steps(lifecycleTaskReply('alpha', 'do work', { background: true })), alpha: async () => ((await never.promise), { text: 'x' }) });
  const engine = f.engine({ sessions }, [testAgent('alpha')]);
  const { taskId } = parseTaskResult(own(await collect(engine.stream('start bg', { sessionId: 's1' })), 'ToolCallEnd')[0]!.text);
  await f.server.waitForRequests(3); // main's two, alpha's one
  return { taskId, engine };
}

describe('engine.close() with a background task running', () => {
  it('resolves once the task closed its turn and released its session: another store claims it at once', async () => {
    f = await startDelegationFixture();
    const { taskId, engine } = await startBackground(new FileSessionStore(f.workspace.dir, { home: f.workspace.home }));
    await engine.close();
    const claim = await new FileSessionStore(f.workspace.dir, { home: f.workspace.home }).claim(taskId, 'after-close');
    expect(claim).toMatchObject({ granted: true });
    if (claim.granted) claim.release();
    const lines = readFileSync(join(f.workspace.dir, '.rxharness', 'sessions', `${taskId}.jsonl`), 'utf8').trim().split('\n');
    expect(lines.at(-1)).toContain('this turn did not finish: the run was cancelled');
  });

  it('does not resolve while the task\'s closing write is held, and does once it is saved', async () => {
    f = await startDelegationFixture();
    const held = storeHoldingWrites();
    const { taskId, engine } = await startBackground(held.sessions);
    const gate = held.arm(); // the cancelled child's closing write waits here
    let closed = false;
    const closing = engine.close().then(() => (closed = true));
    await expect.poll(() => engine.tasks.get(taskId)?.state).toBe('cancelled');
    for (let i = 0; i < 20; i++) await new Promise((r) => setImmediate(r));
    expect(closed).toBe(false);
    gate.open();
    await closing;
    expect((await held.sessions.load(taskId)).at(-1)).toMatchObject({ role: 'assistant', content: expect.stringContaining('the run was cancelled') });
  });
});
