/**
 * More background results than the shared budget can hold at their floor: at 100 characters
 * each, 1,000 results were 100,000 characters of content (twice the default budget), plus
 * their XML. One prompt shows the newest `shownAtOnce(maxResultChars)` (480 by default) and
 * one line says how many older ones wait and names the newest of them. The engine took all
 * of them off the waiting list, so those never came: it now gives them back, and the next
 * prompts show them, the newest first, each once.
 */
import { describe, expect, it } from 'vitest';
import { backgroundResults, shownAtOnce, splitForPrompt } from '../../src/engine/background-results.js';
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
    const newestWaiting = Array.from({ length: 10 }, (_, i) => `task_${519 - i} (digger)`).join(', ');
    expect(text).toContain(`(520 older background task results are waiting, to keep this prompt short; the newest of them: ${newestWaiting}, and others.`);
    expect(text).toContain('They will come with a later prompt, up to 480 a prompt, the newest first.)');
    // Each shown line: its XML and labels, its marker, its line break (under 300 characters here).
    const overhead = formatTaskResult({ description: 'bg 999', agentName: 'digger', taskId: 'task_999', status: 'success', content: '' }).length + truncationMarker(5_000).length + 1;
    const note = text.split('\n').find((line) => line.startsWith('(520 older'))!;
    expect(note.length).toBeLessThan(1_000);
    expect(text.length).toBeLessThanOrEqual(MULTITASK_RESULT_SHARES * max + shown * overhead + note.length + 100);
    // Those that fit are all shown, without the line.
    const few = backgroundResults(tasks.slice(0, shown), max);
    expect(descriptionsIn(few)).toHaveLength(shown);
    expect(few).not.toContain('waiting');
  });
});

describe('splitForPrompt', () => {
  it('shows the newest by when they finished, whatever order the list holds them in', () => {
    const tasks = Array.from({ length: 6 }, (_, i) => info(i, `answer ${i}`));
    const shuffled = [tasks[4]!, tasks[0]!, tasks[5]!, tasks[2]!, tasks[1]!, tasks[3]!];
    const { shown, waiting } = splitForPrompt(shuffled, 100); // 4 shown
    expect(shown.map((t) => t.taskId)).toEqual(['task_2', 'task_3', 'task_4', 'task_5']);
    expect(waiting.map((t) => t.taskId)).toEqual(['task_0', 'task_1']);
  });
});

describe('an engine whose conversation has more finished background tasks than one prompt shows', () => {
  it('delivers the newest, and the others with the next prompts: none lost, none twice', { timeout: 60_000 }, async () => {
    const TASKS = 10;
    const fixture = await startDelegationFixture({
      main: (turn) =>
        turn.step === 1 && turn.prompt === 'start them'
          ? { toolCalls: Array.from({ length: TASKS }, (_, i) => ({ name: 'task', arguments: { ...taskArgs('digger', `dig ${i}`, `bg ${i}`), background: true } })) }
          : { text: 'ok' },
      digger: (turn) => ({ text: `found for ${turn.prompt}` }),
    });
    try {
      // maxResultChars 100: a budget of 400 holds 4 results at their floor of 100.
      const engine = fixture.engine({ maxResultChars: 100 }, [testAgent('digger')]);
      await engine.call('start them', { sessionId: 's' });
      const started = engine.tasks.list('s');
      expect(started).toHaveLength(TASKS);
      await Promise.all(started.map((t) => engine.tasks.whenSettled(t.taskId)));
      const byDescription = new Map(started.map((t) => [t.description, engine.tasks.get(t.taskId)!]));

      const prompts: string[] = [];
      for (const prompt of ['what came back?', 'and then?', 'anything else?', 'still?']) {
        await engine.call(prompt, { sessionId: 's' });
        const request = fixture.server.requests.filter((r) => turnOf(r).agent === 'main').at(-1)!;
        prompts.push(String(request.body.messages!.at(-1)!.content));
      }
      const shown = prompts.map(descriptionsIn);
      expect(shown.map((d) => d.length)).toEqual([4, 4, 2, 0]);
      // The first names the 6 it leaves waiting, the newest first; the second the 2 left; the third none.
      const named = /\(6 older background task results are waiting, to keep this prompt short; the newest of them: (.*)\. They will come with a later prompt, up to 4 a prompt/.exec(prompts[0]!);
      expect(named).not.toBeNull();
      const waitingIds = named![1]!.split(', ').map((n) => n.replace(' (digger)', ''));
      const laterIds = [...shown[1]!, ...shown[2]!].map((d) => byDescription.get(d)!.taskId);
      expect([...waitingIds].sort()).toEqual([...laterIds].sort());
      expect(prompts[1]).toContain('(2 older background task results are waiting');
      expect(prompts[2]).not.toContain('waiting');
      expect(prompts[3]).not.toContain('<background_task_results>');
      // Each once, every one: the whole list, no repeats.
      const all = shown.flat();
      expect(new Set(all).size).toBe(all.length);
      expect([...all].sort()).toEqual([...byDescription.keys()].sort());
      // The newest first: nothing a prompt shows finished before something a later one shows.
      const ends = shown.map((d) => d.map((x) => byDescription.get(x)!.endedAt!));
      for (let i = 1; i < ends.length - 1; i++) expect(Math.min(...ends[i - 1]!)).toBeGreaterThanOrEqual(Math.max(...ends[i]!));
      // Each shown with its own answer.
      for (const d of all) expect(prompts.join('\n')).toContain(`found for dig ${d.slice(3)}`);
      await engine.close();
    } finally {
      await fixture.close();
    }
  });
});
