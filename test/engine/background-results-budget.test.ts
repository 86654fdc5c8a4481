/**
 * The background results delivered in front of one prompt are bounded as a whole, like a
 * `multitask` result: they share MULTITASK_RESULT_SHARES × maxResultChars of content, the
 * longest cut first, each cut one marked, the format unchanged. Each was cut at
 * maxResultChars alone before, so N long answers put N × maxResultChars in one request (up
 * to a thousand results wait for a prompt).
 */
import { describe, expect, it } from 'vitest';
import { testAgent } from '../support/agent-turns.js';
import { startDelegationFixture, turnOf } from '../support/delegation-fixture.js';
import { taskArgs } from '../support/delegation-script.js';
import { MULTITASK_RESULT_SHARES } from '../../src/delegation/multitask-budget.js';

const TASKS = 30;
const MAX = 1_000;
const LONG = 5_000;
const MARKER = /\n\[\.\.\. (\d+) characters truncated by rxharness \.\.\.\]$/;

/** Each `<task_result>` of the block: its description, what it kept, and how much its marker says was cut (0: none). */
function entriesOf(text: string): { description: string; kept: string; omitted: number }[] {
  return [...text.matchAll(/<task_result><description>([^<]*)<\/description>.*?<result_content><!\[CDATA\[([\s\S]*?)\]\]><\/result_content><\/task_result>/g)].map((m) => {
    const raw = m[2]!;
    const marker = MARKER.exec(raw);
    return { description: m[1]!, ...(marker ? { kept: raw.slice(0, marker.index), omitted: Number(marker[1]) } : { kept: raw, omitted: 0 }) };
  });
}

describe('background results delivered together', () => {
  it('share one budget in the request the model receives: short ones whole, long ones cut to a share and marked', { timeout: 60_000 }, async () => {
    const fixture = await startDelegationFixture({
      main: (turn) =>
        turn.step === 1 && turn.prompt === 'start them'
          ? { toolCalls: Array.from({ length: TASKS }, (_, i) => ({ name: 'task', arguments: { ...taskArgs('digger', `dig ${i}`, `bg ${i}`), background: true } })) }
          : { text: 'ok' },
      // every 5th child answers briefly, the others at length
      digger: (turn) => ({ text: turn.prompt.endsWith('0') || turn.prompt.endsWith('5') ? 'short' : `${turn.prompt}:`.padEnd(LONG, 'x') }),
    });
    try {
      const engine = fixture.engine({ maxResultChars: MAX }, [testAgent('digger')]);
      await engine.call('start them', { sessionId: 's' });
      const started = engine.tasks.list('s');
      expect(started).toHaveLength(TASKS);
      await Promise.all(started.map((t) => engine.tasks.whenSettled(t.taskId)));

      await engine.call('what came back?', { sessionId: 's' });
      const request = fixture.server.requests.filter((r) => turnOf(r).agent === 'main').at(-1)!;
      const message = request.body.messages!.at(-1)!;
      const text = typeof message.content === 'string' ? message.content : JSON.stringify(message.content);
      expect(text.startsWith('<background_task_results>\n<task_result>')).toBe(true);
      expect(text.endsWith('</background_task_results>\n\nwhat came back?')).toBe(true);
      const entries = entriesOf(text);
      expect(entries.map((e) => e.description).sort()).toEqual(Array.from({ length: TASKS }, (_, i) => `bg ${i}`).sort());

      const total = entries.reduce((sum, e) => sum + e.kept.length, 0);
      expect(total).toBeLessThanOrEqual(MULTITASK_RESULT_SHARES * MAX);
      // 4,000 - 6 × 5 = 3,970 for 24 long answers: 165 each, their start kept, the rest counted
      for (const e of entries) {
        const prompt = `dig ${e.description.slice(3)}`;
        if (/[05]$/.test(prompt)) expect(e).toMatchObject({ kept: 'short', omitted: 0 });
        else expect(e).toMatchObject({ kept: `${prompt}:`.padEnd(165, 'x'), omitted: LONG - 165 });
      }
      // the rest of the message is the XML of each line and its marker
      expect(text.length).toBeLessThan(MULTITASK_RESULT_SHARES * MAX + TASKS * 300);
      // the full text stays in the tracker
      expect(started.every((t) => engine.tasks.get(t.taskId)?.result?.length === (/[05]$/.test(t.description) ? 5 : LONG))).toBe(true);
      await engine.close();
    } finally {
      await fixture.close();
    }
  });
});
