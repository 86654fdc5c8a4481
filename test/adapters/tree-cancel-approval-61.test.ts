/**
 * A task cancelled (or ended) while its approval waits sends no `HITLDecided`: the reducer
 * settles its waiting call, and the terminal tree, which stops redrawing while an approval
 * waits (so the question below stays), must then redraw again. Counting `HITLPending` and
 * `HITLDecided` events froze the tree for the rest of the run.
 */
import { Writable } from 'node:stream';
import { Subject } from 'rxjs';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { AgentEvent } from '../../src/events/index.js';
import { liveTree } from '../../src/adapters/index.js';
import { FixtureRun } from './fixtures.js';

const ANSI = /\u001b\[[0-9;?]*[A-Za-z]/g;
const bash = (callId: string) => ({ callId, name: 'bash', args: { command: 'rm -rf build' } });

/** A terminal that records each write, and a run streamed into a live tree on it. */
function watched() {
  const writes: string[] = [];
  const output = Object.assign(new Writable({ write: (chunk: Buffer, _e, done) => (writes.push(chunk.toString()), done()) }), { isTTY: true, columns: 100, rows: 40, hasColors: () => false });
  const source = new Subject<AgentEvent>();
  source.pipe(liveTree({ output, intervalMs: 80 })).subscribe();
  const main = new FixtureRun('m', 'main');
  const asker = main.task({ taskId: 'a', agentName: 'explore', description: 'Asks' });
  const other = main.task({ taskId: 'b', agentName: 'explore', description: 'Streams' });
  for (const event of [main.start('Survey'), asker.start('x'), other.start('y'), asker.approvalPending(bash('c1'), 'bash asks')]) source.next(event);
  return { writes, source, main, asker, other, screen: () => writes.join('').replace(ANSI, '') };
}

afterEach(() => {
  vi.useRealTimers();
});

describe('the live tree after an approval that waits is settled without a decision', () => {
  it('redraws again once the task that asked is cancelled', () => {
    vi.useFakeTimers();
    const { writes, source, asker, other, screen } = watched();
    const frozen = writes.length;
    expect(screen()).toContain('⏸ approval: bash');
    vi.advanceTimersByTime(400);
    expect(writes.length).toBe(frozen); // the question below stays

    source.next(asker.wrap({ type: 'RunCancelled', runId: asker.runId, agentName: 'explore', reason: 'cancelled by the user' }));
    for (const event of other.reason(1, 'still working on it')) source.next(event);
    const cancelled = writes.length;
    vi.advanceTimersByTime(400);
    expect(writes.length).toBeGreaterThan(cancelled + 3); // redrawn on the timer, frame after frame
    expect(vi.getTimerCount()).toBe(1);
    expect(writes.slice(frozen).join('').replace(ANSI, '')).toContain('⊘ explore Asks');
    source.complete();
    expect(vi.getTimerCount()).toBe(0);
  });

  it('redraws again once the task that asked ends, and a late question of an ended task stops nothing', () => {
    vi.useFakeTimers();
    const { writes, source, asker, other } = watched();
    source.next(asker.end('gave up waiting'));
    const ended = writes.length;
    vi.advanceTimersByTime(400);
    expect(writes.length).toBeGreaterThan(ended + 3);

    source.next(asker.approvalPending(bash('c2'), 'bash asks')); // its task is over: nobody waits for it
    for (const event of other.reason(1, 'more')) source.next(event);
    const late = writes.length;
    vi.advanceTimersByTime(400);
    expect(writes.length).toBeGreaterThan(late + 3);
    source.complete();
  });

  it('stays still while another approval still waits', () => {
    vi.useFakeTimers();
    const { writes, source, asker, other } = watched();
    source.next(other.approvalPending(bash('c3'), 'bash asks'));
    const frozen = writes.length;
    source.next(asker.wrap({ type: 'RunCancelled', runId: asker.runId, agentName: 'explore', reason: 'cancelled by the user' }));
    vi.advanceTimersByTime(400);
    expect(writes.length).toBe(frozen);
    source.next(other.approvalDecided(bash('c3'), 'approve'));
    vi.advanceTimersByTime(400);
    expect(writes.length).toBeGreaterThan(frozen + 3);
    source.complete();
  });
});
