/**
 * More background results than the shared budget can hold at their floor: at 100 characters
 * each, 1,000 results were 100,000 characters of content (twice the default budget), plus
 * their XML. Now one prompt shows the newest `shownAtOnce(maxResultChars)` (480 by default)
 * and one line says how many older ones it does not show, names the newest of them and how
 * to read one: each stays readable (the tracker keeps its whole result, and resuming its
 * task gives its answer again).
 */
import { describe, expect, it } from 'vitest';
import { backgroundResults, shownAtOnce } from '../../src/engine/background-results.js';
import type { TaskInfo } from '../../src/delegation/task-tracker.js';
import { MULTITASK_RESULT_SHARES } from '../../src/delegation/multitask-budget.js';
import { formatTaskResult, truncationMarker } from '../../src/delegation/task-result-format.js';
import { testAgent } from '../support/agent-turns.js';
import { startDelegationFixture, turnOf } from '../support/delegation-fixture.js';
import { taskArgs } from '../support/delegation-script.js';

const info = (i: number, result: string): TaskInfo => ({
  taskId: `task_${i}`,
  agentName: 'digger',
  description: `bg ${i}`,
  sessionId: 's',
  parentRunId: 'run_1',
  background: true,
  state: 'done',
  startedAt: i,
  endedAt: i + 1,
  result,
});
const descriptionsIn = (text: string) => [...text.matchAll(/<description>([^<]*)<\/description>/g)].map((m) => m[1]!);

describe('backgroundResults past what the budget holds at the floor', () => {
  it('shows the newest that fit and one line for the others: the block stays within the budget plus a fixed overhead per shown entry', () => {
    const max = 12_000;
    const tasks = Array.from({ length: 1_000 }, (_, i) => info(i, `answer ${i} `.padEnd(5_000, 'x')));
    const text = backgroundResults(tasks, max);
    const shown = shownAtOnce(max);
    expect(shown).toBe(480);
    expect(descriptionsIn(text)).toEqual(tasks.slice(-shown).map((t) => t.description));
    const newestUnshown = Array.from({ length: 10 }, (_, i) => `task_${519 - i} (digger)`).join(', ');
    expect(text).toContain(`(520 older background task results are not shown, to keep this prompt short; the newest of them: ${newestUnshown}, and others.`);
    expect(text).toContain('resume it with `task` (its `task_id` and `agent_name`)');
    // Each shown line: its XML and labels, its marker, its line break (under 300 characters here).
    const overhead = formatTaskResult({ description: 'bg 999', agentName: 'digger', taskId: 'task_999', status: 'success', content: '' }).length + truncationMarker(5_000).length + 1;
    const note = text.split('\n').find((line) => line.startsWith('(520 older'))!;
    expect(note.length).toBeLessThan(1_000);
    expect(text.length).toBeLessThanOrEqual(MULTITASK_RESULT_SHARES * max + shown * overhead + note.length + 100);
    // Those that fit are all shown, without the line.
    const few = backgroundResults(tasks.slice(0, shown), max);
    expect(descriptionsIn(few)).toHaveLength(shown);
    expect(few).not.toContain('not shown');
  });
});

describe('an engine whose conversation has more finished background tasks than one prompt shows', () => {
  it('delivers the newest, names the others, and each of those can be read by resuming it', { timeout: 60_000 }, async () => {
    const TASKS = 10;
    let resumeId = '';
    const fixture = await startDelegationFixture({
      main: (turn) => {
        if (turn.step === 1 && turn.prompt === 'start them') {
          return { toolCalls: Array.from({ length: TASKS }, (_, i) => ({ name: 'task', arguments: { ...taskArgs('digger', `dig ${i}`, `bg ${i}`), background: true } })) };
        }
        if (turn.step === 1 && turn.prompt === 'read one') return { toolCalls: [{ name: 'task', arguments: { ...taskArgs('digger', 'say your answer again', 'again'), task_id: resumeId } }] };
        return { text: 'ok' };
      },
      // A resumed child finds its earlier answer in its session.
      digger: (turn, request) => {
        const earlier = request.body.messages?.findLast((m) => m.role === 'assistant');
        return { text: earlier ? `again: ${String(earlier.content)}` : `found for ${turn.prompt}` };
      },
    });
    try {
      // maxResultChars 100: a budget of 400 holds 4 results at their floor of 100.
      const engine = fixture.engine({ maxResultChars: 100 }, [testAgent('digger')]);
      await engine.call('start them', { sessionId: 's' });
      const started = engine.tasks.list('s');
      expect(started).toHaveLength(TASKS);
      await Promise.all(started.map((t) => engine.tasks.whenSettled(t.taskId)));

      await engine.call('what came back?', { sessionId: 's' });
      const request = fixture.server.requests.filter((r) => turnOf(r).agent === 'main').at(-1)!;
      const text = String(request.body.messages!.at(-1)!.content);
      const shown = descriptionsIn(text);
      expect(shown).toHaveLength(shownAtOnce(100));
      const note = /\(6 older background task results are not shown, to keep this prompt short; the newest of them: (.*)\. Each task/.exec(text);
      expect(note).not.toBeNull();
      const named = note![1]!.split(', ').map((n) => n.replace(' (digger)', ''));
      // Every task is either shown or named: none is lost, and each named one still has its whole result.
      const byId = new Map(started.map((t) => [t.taskId, t.description]));
      expect([...shown, ...named.map((id) => byId.get(id)!)].sort()).toEqual([...byId.values()].sort());
      for (const id of named) expect(engine.tasks.get(id)?.result).toBe(`found for dig ${byId.get(id)!.slice(3)}`);

      resumeId = named[0]!;
      const again = await engine.call('read one', { sessionId: 's' });
      expect(again.text).toBe('ok');
      const read = fixture.server.requests.filter((r) => turnOf(r).agent === 'main').at(-1)!;
      expect(String(read.body.messages!.at(-1)!.content)).toContain(`again: found for dig ${byId.get(resumeId)!.slice(3)}`);
      await engine.close();
    } finally {
      await fixture.close();
    }
  });
});
