/**
 * `maxRuns` and background tasks across handlers sharing one cap (as `rxharness serve`'s do):
 * a run started through the chat route that leaves a background task behind keeps its slot
 * until the task ends, as one started through `POST /runs` does; one slot per conversation,
 * whichever route its runs came through.
 */
import { describe, expect, it } from 'vitest';
import { RunSlots } from '../../src/http/run-slots.js';
import { chatHandler } from '../../src/protocols/ui-message-stream/chat-handler.js';
import { testAgent } from '../support/agent-turns.js';
import { closedAfterEach } from '../support/closed-after-each.js';
import type { DelegationFixture } from '../support/delegation-fixture.js';
import { backgroundLeavingFixture } from '../http/background-kit.js';
import { postJson, serveRuns, type RunsServer } from '../http/http-kit.js';

const open = closedAfterEach<{ served: RunsServer; fixture: DelegationFixture }>(['served', 'fixture']);

const chatBody = (id: string, text: string) => ({ id, messages: [{ id: `u-${text}`, role: 'user', parts: [{ type: 'text', text }] }] });

describe('chatHandler: maxRuns shared with runsHandler counts a run’s background tasks', () => {
  it('keeps a chat run’s slot until its background task ends, one slot per conversation across routes', { timeout: 30_000 }, async () => {
    const { fixture, gate } = await backgroundLeavingFixture();
    open.fixture = fixture;
    const slots = new RunSlots(2);
    open.served = await serveRuns({ model: open.fixture.model() }, { maxRuns: slots }, (engine) => [chatHandler(engine, { path: '/api/chat', maxRuns: slots })]);
    const { engine, url } = open.served;
    engine.agents.add(testAgent('alpha'));
    const chat = async (id: string, text: string) => (await postJson(`${url}/api/chat`, chatBody(id, text))).status;
    const start = async (prompt: string, sessionId: string) => (await postJson(`${url}/runs`, { prompt, sessionId })).status;
    const over = (sessionId: string) => engine.runs.list({ sessionId }).every((r) => r.state !== 'running');

    // A chat run that leaves a background task behind, and ends (its stream with it): its slot stays taken.
    expect(await chat('chat-a', 'leave')).toBe(200);
    await expect.poll(() => over('chat-a')).toBe(true);
    const [task] = engine.tasks.list('chat-a');
    expect(task).toMatchObject({ background: true, state: 'running' });
    await new Promise((settled) => setImmediate(settled)); // the run's settle has been handled
    expect(slots.taken).toBe(1);

    // More prompts of the same conversation, through either route: its background tasks hold one slot, not one per run or route.
    expect(await chat('chat-a', 'quick')).toBe(200);
    await expect.poll(() => over('chat-a')).toBe(true);
    expect(await start('quick', 'chat-a')).toBe(201);
    await expect.poll(() => over('chat-a')).toBe(true);
    await new Promise((settled) => setImmediate(settled));
    expect(slots.taken).toBe(1);

    // Another conversation's run takes the second slot; a third is refused while the task runs.
    expect(await start('hang', 'b')).toBe(201);
    expect(await chat('chat-c', 'quick')).toBe(429);

    // The background task ends: its conversation's slot is free again.
    gate.open();
    await expect.poll(() => engine.tasks.get(task!.taskId)?.state).toBe('done');
    await expect.poll(() => slots.taken).toBe(1);
    expect(await start('hang', 'c')).toBe(201);
  });
});
