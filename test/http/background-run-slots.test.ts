/**
 * `maxRuns` and background tasks: a task started with `background: true` outlives the run that
 * started it, and would otherwise hold no slot, so a client could keep any number of model
 * streams going by starting runs that each leave one behind.
 */
import { describe, expect, it } from 'vitest';
import { testAgent } from '../support/agent-turns.js';
import { closedAfterEach } from '../support/closed-after-each.js';
import type { DelegationFixture } from '../support/delegation-fixture.js';
import { backgroundLeavingFixture } from './background-kit.js';
import { postJson, serveRuns, type RunsServer } from './http-kit.js';

const open = closedAfterEach<{ served: RunsServer; fixture: DelegationFixture }>(['served', 'fixture']);

describe('runsHandler: maxRuns counts a run’s background tasks', () => {
  it('keeps a run’s slot until its background task ends, one slot per conversation', { timeout: 30_000 }, async () => {
    const { fixture, gate } = await backgroundLeavingFixture();
    open.fixture = fixture;
    open.served = await serveRuns({ model: open.fixture.model() }, { maxRuns: 2 });
    const { engine, url } = open.served;
    engine.agents.add(testAgent('alpha'));
    const start = async (prompt: string, sessionId: string) => (await postJson(`${url}/runs`, { prompt, sessionId })).status;
    const over = (sessionId: string) => engine.runs.list({ sessionId }).every((r) => r.state !== 'running');

    // A run that leaves a background task behind, and ends.
    expect(await start('leave', 'a')).toBe(201);
    await expect.poll(() => over('a')).toBe(true);
    const [task] = engine.tasks.list('a');
    expect(task).toMatchObject({ background: true, state: 'running' });

    // More prompts of the same conversation are not refused: its background tasks hold one slot, not one per run.
    expect(await start('quick', 'a')).toBe(201);
    await expect.poll(() => over('a')).toBe(true);
    expect(await start('quick', 'a')).toBe(201);
    await expect.poll(() => over('a')).toBe(true);

    // Another conversation's run takes the second slot; a third is refused while the task runs.
    expect(await start('hang', 'b')).toBe(201);
    const refused = await postJson(`${url}/runs`, { prompt: 'hang', sessionId: 'c' });
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toBe('5');

    // The background task ends: its conversation's slot is free again.
    gate.open();
    await expect.poll(() => engine.tasks.get(task!.taskId)?.state).toBe('done');
    expect(await start('hang', 'c')).toBe(201);
  });
});
