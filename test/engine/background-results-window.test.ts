/**
 * Background results larger than the room the context window leaves a turn. They go in front
 * of the turn's prompt, which a compaction keeps whole: the first request of that turn was
 * refused as too long, and the turn failed ("compacting cannot make it fit"); only the next
 * turn, which summarised the old prompt away, answered. Now the results are clipped to the
 * room left, with a note in the prompt saying how much of which results was left out (and a
 * `Warning` saying so to the user): the turn answers, and the full results stay in the tracker.
 */
import { describe, expect, it } from 'vitest';
import type { AgentEvent } from '../../src/events/agent-event.js';
import { OpenAIChatModel } from '../../src/model/openai-chat-model.js';
import { testAgent } from '../support/agent-turns.js';
import { collect } from '../support/collect-events.js';
import { isSummaryRequest } from '../support/compaction-kit.js';
import { startDelegationFixture, turnOf, type AgentRoute } from '../support/delegation-fixture.js';
import { taskArgs } from '../support/delegation-script.js';
import { promptTokens, refusingOver } from './support/refusing-window.js';

const WINDOW = 12_288;
const TASKS = 4;
const ANSWER = 12_000;

const within = (route: AgentRoute): AgentRoute => refusingOver(WINDOW, route);

describe('background results larger than the free room of the window', () => {
  it('are clipped to fit with a note saying how much was left out: the turn answers at once', { timeout: 60_000 }, async () => {
    const fixture = await startDelegationFixture({
      main: within((turn, request) => {
        if (turn.step === 1 && turn.prompt === 'start them') {
          return { toolCalls: Array.from({ length: TASKS }, (_, i) => ({ name: 'task', arguments: { ...taskArgs('digger', `dig ${i}`, `bg ${i}`), background: true } })) };
        }
        return { text: 'ok' };
      }),
      digger: within((turn) => ({ text: `${turn.prompt}: `.padEnd(ANSWER, 'x') })),
      // The `compaction` agent, summarising the turns before this one.
      '*': within((_turn, request) => (isSummaryRequest(request) ? { text: 'SUMMARY: four digs were started.' } : { status: 418 })),
    });
    try {
      const model = new OpenAIChatModel({ model: 'main-model', baseURL: fixture.server.baseURL, apiKey: 'test', maxRetries: 0, settings: { contextWindow: WINDOW } });
      const engine = fixture.engine({ model }, [testAgent('digger')]);
      await engine.call('start them', { sessionId: 's' });
      const started = engine.tasks.list('s');
      expect(started).toHaveLength(TASKS);
      await Promise.all(started.map((t) => engine.tasks.whenSettled(t.taskId)));

      const events: AgentEvent[] = await collect(engine.stream('what came back?', { sessionId: 's' }));
      expect(events.at(-1)).toMatchObject({ type: 'RunEnd', abnormal: false, text: 'ok' });
      const main = fixture.server.requests.filter((r) => turnOf(r).agent === 'main' && !isSummaryRequest(r));
      const last = main.at(-1)!;
      expect(last.status).toBe(200);
      expect(promptTokens(last)).toBeLessThanOrEqual(WINDOW);
      // No refusal: the turn's first request was sized to fit.
      expect(fixture.server.requests.filter((r) => r.status !== 200)).toEqual([]);
      const prompt = String(last.body.messages!.at(-1)!.content);
      expect(prompt.endsWith('what came back?')).toBe(true);
      // Every result still named, each with its start, and one note saying how much went and why.
      for (let i = 0; i < TASKS; i++) expect(prompt).toContain(`dig ${i}: x`);
      const note = /\(These background task results were cut from (\d+) to (\d+) characters to fit the context window/.exec(prompt);
      expect(note).not.toBeNull();
      const [before, after] = [Number(note![1]), Number(note![2])];
      expect(before).toBe(TASKS * ANSWER);
      expect(after).toBeLessThan(before / 2);
      expect(prompt.match(/\[\.\.\. \d+ characters cut \.\.\.\]/g)).toHaveLength(TASKS);
      // The user is told too, with the same numbers.
      const warning = events.find((e) => e.type === 'Warning' && e.code === 'background-results-cut');
      expect(warning).toMatchObject({ message: expect.stringContaining(`cut from ${before} to ${after} characters to fit the ${WINDOW}-token context window`) });
      // The whole block is in the session's archive.
      expect((await engine.sessions.loadArchive?.('s'))?.some((m) => m.role === 'user' && m.content.length > TASKS * ANSWER)).toBe(true);
      // The full results stay with their tasks.
      for (const t of started) expect(engine.tasks.get(t.taskId)?.result?.length).toBe(ANSWER);
      // The next turn runs as usual.
      expect(await engine.call('thanks', { sessionId: 's' })).toMatchObject({ abnormal: false, text: 'ok' });
      expect(fixture.server.requests.filter((r) => r.status !== 200)).toEqual([]);
      await engine.close();
    } finally {
      await fixture.close();
    }
  });
});
