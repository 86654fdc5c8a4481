/**
 * The terminal tree while approvals are asked for: it reads one number to know whether one
 * waits (a walk per event made 10,000 task ends take minutes while one waited), it stops
 * below its frame only for an approval that writes to the terminal (`--yes` left a frozen
 * copy of the tree per call), and a 0x0 terminal (a pty never sized) still shows it.
 */
import { Writable } from 'node:stream';
import { Subject, VirtualTimeScheduler } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { liveTree } from '../../src/adapters/index.js';
import { createTreeState, reduceTree, type TaskTreeState } from '../../src/adapters/task-tree/index.js';
import { ttyView } from '../../src/adapters/terminal-tree/tree-views.js';
import type { AgentEvent } from '../../src/events/index.js';
import { FixtureRun } from './fixtures.js';
import { screenLines } from './support/screen-lines.js';
import { countReads } from './task-tree/count-reads.js';

const bash = (callId: string) => ({ callId, name: 'bash', args: { command: `npm run ${callId}` } });

function terminal(size: { columns: number; rows: number } = { columns: 100, rows: 40 }) {
  const writes: string[] = [];
  const output = Object.assign(new Writable({ write: (c: Buffer, _e, done) => (writes.push(c.toString()), done()) }), { isTTY: true, ...size, hasColors: () => false });
  return { output, text: () => writes.join('') };
}

/** A run whose task `scout` makes five calls, each asked for and approved at once, drawn by `liveTree` with `options`. */
function fiveApprovedCalls(asksHuman?: () => boolean): string[] {
  const { output, text } = terminal();
  const source = new Subject<AgentEvent>();
  source.pipe(liveTree({ output, showResult: false, scheduler: new VirtualTimeScheduler(), ...(asksHuman ? { asksHuman } : {}) })).subscribe();
  const main = new FixtureRun('m', 'main');
  const scout = main.task({ taskId: 'a', agentName: 'scout', description: 'Survey the repository' });
  source.next(main.start('Survey'));
  source.next(scout.start('x'));
  for (let i = 1; i <= 5; i += 1) {
    source.next(scout.toolStart(i, bash(`c${i}`)));
    source.next(scout.approvalPending(bash(`c${i}`), 'bash asks'));
    source.next(scout.approvalDecided(bash(`c${i}`), 'approve'));
    source.next(scout.toolEnd(i, bash(`c${i}`), 'ok'));
  }
  source.next(scout.end('done'));
  source.next(main.end('all done'));
  source.complete();
  return screenLines(text()).filter((line) => line.includes('Survey the repository'));
}

describe('the terminal tree and approvals', () => {
  it('while an approval waits, a task\'s end does not walk the tree (its root\'s children are never read)', () => {
    const main = new FixtureRun('m', 'main');
    const tasks = Array.from({ length: 300 }, (_, i) => main.task({ taskId: `t${i}`, agentName: 'w', description: `job ${i}`, taskIndex: i + 1, multitask: true }));
    const view = ttyView({ output: terminal().output, intervalMs: 80, scheduler: new VirtualTimeScheduler(), color: false, showResult: false });
    let state: TaskTreeState = createTreeState();
    const feed = (event: AgentEvent): TaskTreeState => {
      state = reduceTree(state, event, 0);
      view.update(state, event);
      return state;
    };
    [main.start('go'), ...tasks.map((t) => t.start('x')), tasks[0]!.approvalPending(bash('c1'), 'asks')].forEach(feed);
    let reads = 0;
    for (const t of tasks.slice(1)) {
      const event = t.end('done');
      state = reduceTree(state, event, 0);
      const counted = countReads(state.root!);
      view.update(state, event);
      reads += counted();
    }
    expect(reads).toBe(0); // the old check walked the tree per end: 299 reads
    view.close(state);
  });

  it('an approval decided without a word (--yes) leaves the tree on screen once', () => {
    expect(fiveApprovedCalls(() => false)).toHaveLength(1);
  });

  it('an approval the human is asked leaves its frame in place for the question (the default)', () => {
    expect(fiveApprovedCalls()).toHaveLength(6); // one frame per question, and the last one
    let asked = 0;
    expect(fiveApprovedCalls(() => ++asked === 1)).toHaveLength(2); // asked once only: that frame and the last
  });

  it('a terminal that says it is 0x0 is drawn at 80x24, not left empty', () => {
    const { output, text } = terminal({ columns: 0, rows: 0 });
    const source = new Subject<AgentEvent>();
    source.pipe(liveTree({ output, showResult: false, scheduler: new VirtualTimeScheduler() })).subscribe();
    const main = new FixtureRun('m', 'main');
    const t = main.task({ taskId: 'a', agentName: 'explore', description: 'Survey the repository' });
    [main.start('Survey'), t.start('x'), t.end('done'), main.end('all done')].forEach((e) => source.next(e));
    source.complete();
    const screen = screenLines(text());
    expect(screen.some((line) => line.includes('explore') && line.includes('Survey the repository'))).toBe(true);
    expect(Math.max(...screen.map((line) => line.length))).toBeLessThanOrEqual(80);
  });
});
