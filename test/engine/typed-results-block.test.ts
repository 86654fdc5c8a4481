/**
 * A prompt that itself starts like the engine's block of background results (a user pasting
 * one, or a client sending it) is the user's text: it was cut as if the engine had written it
 * (72 KB typed, 16.6 KB sent), with a `background-results-cut` Warning naming tasks that do not
 * exist. Only the block the engine puts in front of the prompt is cut now; a large typed prompt
 * is refused or compacted as any other.
 */
import { describe, expect, it } from 'vitest';
import type { AgentEvent } from '../../src/events/agent-event.js';
import { OpenAIChatModel } from '../../src/model/openai-chat-model.js';
import { testAgent } from '../support/agent-turns.js';
import { collect } from '../support/collect-events.js';
import { isSummaryRequest } from '../support/compaction-kit.js';
import { startDelegationFixture, turnOf, type AgentRoute } from '../support/delegation-fixture.js';
import { taskArgs } from '../support/delegation-script.js';
import { refusingOver } from './support/refusing-window.js';
import type { RecordedRequest } from '../support/fake-openai-server.js';

const WINDOW = 12_288;

const within = (route: AgentRoute): AgentRoute => refusingOver(WINDOW, route);

/** A prompt written in the block's format, its log `repeat` lines long. */
const pasted = (repeat: number): string =>
  [
    '<background_task_results>',
    `<task_result><result_content><![CDATA[${'MY LOG LINE '.repeat(repeat)}]]></result_content></task_result>`,
    '</background_task_results>',
    'Please explain the log above.',
  ].join('\n');

/** The last user message of each request of the main agent (summaries aside). */
const sentPrompts = (requests: readonly RecordedRequest[]): string[] =>
  requests.filter((r) => turnOf(r).agent === 'main' && !isSummaryRequest(r)).map((r) => String(r.body.messages!.at(-1)!.content));

describe('a typed prompt in the format of the background results block', () => {
  it('is sent whole, with no warning of background results cut, when no task ran', { timeout: 60_000 }, async () => {
    const fixture = await startDelegationFixture({ main: within(() => ({ text: 'ok' })), '*': within(() => ({ text: 'SUMMARY' })) });
    try {
      const model = new OpenAIChatModel({ model: 'main-model', baseURL: fixture.server.baseURL, apiKey: 'test', maxRetries: 0, settings: { contextWindow: WINDOW } });
      const engine = fixture.engine({ model }, []);
      const typed = pasted(6000); // about 18,000 tokens: over the window
      const events: AgentEvent[] = await collect(engine.stream(typed, { sessionId: 's' }));
      expect(events.filter((e) => e.type === 'Warning' && e.code === 'background-results-cut')).toEqual([]);
      const sent = sentPrompts(fixture.server.requests);
      expect(sent.length).toBeGreaterThan(0);
      for (const prompt of sent) expect(prompt).toBe(typed);
      // Too large for the window, it ends as any prompt too large does.
      expect(events.at(-1)).toMatchObject({ type: 'RunEnd', abnormal: true, error: expect.stringContaining('does not fit the context window') });
      await engine.close();
    } finally {
      await fixture.close();
    }
  });

  it('stays whole behind the engine’s own block, which is cut to fit', { timeout: 60_000 }, async () => {
    const fixture = await startDelegationFixture({
      main: within((turn) =>
        turn.step === 1 && turn.prompt === 'start them'
          ? { toolCalls: Array.from({ length: 2 }, (_, i) => ({ name: 'task', arguments: { ...taskArgs('digger', `dig ${i}`, `bg ${i}`), background: true } })) }
          : { text: 'ok' },
      ),
      digger: within((turn) => ({ text: `${turn.prompt}: `.padEnd(24_000, 'x') })),
      '*': within((_turn, request) => (isSummaryRequest(request) ? { text: 'SUMMARY: two digs were started.' } : { status: 418 })),
    });
    try {
      const model = new OpenAIChatModel({ model: 'main-model', baseURL: fixture.server.baseURL, apiKey: 'test', maxRetries: 0, settings: { contextWindow: WINDOW } });
      const engine = fixture.engine({ model }, [testAgent('digger')]);
      await engine.call('start them', { sessionId: 's' });
      await Promise.all(engine.tasks.list('s').map((t) => engine.tasks.whenSettled(t.taskId)));

      const typed = pasted(300);
      const events: AgentEvent[] = await collect(engine.stream(typed, { sessionId: 's' }));
      expect(events.at(-1)).toMatchObject({ type: 'RunEnd', abnormal: false, text: 'ok' });
      const prompt = sentPrompts(fixture.server.requests).at(-1)!;
      // The engine's block was cut (its note and markers), the typed prompt after it kept whole.
      expect(prompt.endsWith(`\n\n${typed}`)).toBe(true);
      const engineBlock = prompt.slice(0, -typed.length);
      expect(engineBlock).toMatch(/\(These background task results were cut from \d+ to \d+ characters to fit the context window/);
      expect(engineBlock.match(/\[\.\.\. \d+ characters cut \.\.\.\]/g)).toHaveLength(2);
      expect(events.filter((e) => e.type === 'Warning' && e.code === 'background-results-cut')).toHaveLength(1);
      await engine.close();
    } finally {
      await fixture.close();
    }
  });
});
