import { PassThrough, Writable } from 'node:stream';
import { from, lastValueFrom, Subject, throwError, concat, toArray, type Subscription } from 'rxjs';
import { TestScheduler } from 'rxjs/testing';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { AgentEvent } from '../../src/events/index.js';
import { liveTree } from '../../src/adapters/index.js';
import { FixtureRun, multitaskRun } from './fixtures.js';

const ESC = '\u001b';
const ANSI = /\u001b\[[0-9;?]*[A-Za-z]/g;

/** A writable that says it is a terminal and records what is written, and when. */
function fakeTty(clock: () => number = () => 0, columns = 100) {
  const writes: Array<{ at: number; text: string }> = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      writes.push({ at: clock(), text: chunk.toString() });
      callback();
    },
  });
  return { output: Object.assign(stream, { isTTY: true, columns, hasColors: () => false }), writes };
}

function plainOutput(): { output: PassThrough; text: () => string } {
  const output = new PassThrough();
  const chunks: string[] = [];
  output.on('data', (c: Buffer) => chunks.push(c.toString()));
  return { output, text: () => chunks.join('') };
}

afterEach(() => {
  vi.useRealTimers();
});

describe('liveTree without a terminal', () => {
  it('passes every event through and writes plain lines for notable events only', async () => {
    const { events } = multitaskRun();
    const { output, text } = plainOutput();
    const passed = await lastValueFrom(from(events).pipe(liveTree({ output }), toArray()));
    expect(passed).toEqual(events);
    const written = text();
    expect(written).not.toContain(ESC);
    expect(written.split('\n')).toEqual([
      '[main] tool multitask ×3 started',
      '[explore#1] task started: Find tests',
      '[explore#2] task started: Find TODOs',
      '[bash#3] task started: Recent commits',
      '[explore#1] tool read test/index.ts started',
      '[explore#2] tool grep TODO started',
      '[bash#3] tool bash git log -3 started',
      '[explore#1] tool read done (0.0s)',
      '[explore#2] tool grep done (0.0s)',
      '[bash#3] tool bash failed: not a git repository',
      '[bash#3] task failed: git failed: not a git repository (1.5s, 50 tok)',
      '[explore#1] task done (1.5s, 300 tok)',
      '[explore#2] task done (1.5s, 200 tok)',
      '[main] tool multitask done (0.0s)',
      '[main] run done (1.5s, 1,200 tok), final answer:',
      'Tests are in test/, one TODO, no git.',
      '',
    ]);
  });

  it('names nested tasks by their path, strips escape codes from model text, and reports a stream error', async () => {
    const main = new FixtureRun('m', 'main');
    const child = main.task({ taskId: 'a', agentName: 'general', description: 'Outer' });
    const grandchild = child.task({ taskId: 'b', agentName: 'explore', description: `\u001b[31mInner\u001b[0m` });
    const { output, text } = plainOutput();
    const failing = concat(from([main.start('go'), child.start('x'), grandchild.start('y')]), throwError(() => new Error('socket hang up')));
    await expect(lastValueFrom(failing.pipe(liveTree({ output })))).rejects.toThrow('socket hang up');
    expect(text()).toBe(['[general#1] task started: Outer', '[general#1 > explore#1] task started: Inner', 'error: Error: socket hang up', ''].join('\n'));
  });
});

describe('liveTree on a terminal', () => {
  it('redraws at most once per interval however fast events come (virtual time)', () => {
    const scheduler = new TestScheduler((actual, expected) => expect(actual).toEqual(expected));
    const main = new FixtureRun('m', 'main');
    const deltas = main.reason(1, 'abcdefghijklmnopqrstuvwxyz0123456789'.repeat(2)).slice(1, -1);
    const { output, writes } = fakeTty(() => scheduler.now());
    scheduler.run(({ cold, expectObservable }) => {
      // 10 text deltas one frame apart, then the end at frame 40
      const values: Record<string, AgentEvent> = { s: main.start('go'), z: main.end('done', { tokens: 42 }) };
      deltas.slice(0, 10).forEach((d, i) => (values[String(i)] = d));
      const marble = 's0123456789 28ms z|';
      expectObservable(cold(marble, values).pipe(liveTree({ output, intervalMs: 10, scheduler }))).toBe(marble, values);
    });
    const draws = writes.filter((w) => w.text.includes('main'));
    // the first event draws at once, then at most one draw per 10 ms tick, then the last one
    expect(draws.length).toBeGreaterThanOrEqual(3);
    expect(draws.length).toBeLessThanOrEqual(6);
    expect(new Set(draws.map((w) => w.at)).size).toBe(draws.length);
    expect(draws[0]?.at).toBe(0);
    const last = writes.map((w) => w.text).join('').replace(ANSI, '');
    expect(last).toContain('✔ main go (1.5s, 42 tok) › done');
    expect(writes.at(-1)?.text).toBe('\ndone\n');
  });

  it('stops its timer at completion and leaves the final tree and answer', () => {
    vi.useFakeTimers();
    const main = new FixtureRun('m', 'main');
    const child = main.task({ taskId: 't', agentName: 'explore', description: 'Look around' });
    const source = new Subject<AgentEvent>();
    const { output, writes } = fakeTty();
    const seen: AgentEvent[] = [];
    source.pipe(liveTree({ output, intervalMs: 80 })).subscribe((e) => seen.push(e));
    expect(vi.getTimerCount()).toBe(0);
    source.next(main.start('Survey'));
    expect(vi.getTimerCount()).toBe(1);
    const first = writes.length;
    source.next(child.start('look'));
    expect(writes.length).toBe(first);
    vi.advanceTimersByTime(80);
    expect(writes.length).toBeGreaterThan(first);
    expect(writes.at(-1)?.text.replace(ANSI, '')).toContain('explore Look around');
    source.next(child.end('Found it', { tokens: 7 }));
    source.next(main.end('All good', { tokens: 9 }));
    source.complete();
    expect(vi.getTimerCount()).toBe(0);
    const screen = writes.map((w) => w.text).join('').replace(ANSI, '');
    expect(screen).toContain('└─ ✔ explore Look around (1.5s, 7 tok) › Found it');
    expect(screen.endsWith('\nAll good\n')).toBe(true);
    expect(seen).toHaveLength(4);
  });

  it('while approvals are pending it draws once and stops redrawing, so a question below stays; it resumes when all are decided', () => {
    vi.useFakeTimers();
    const main = new FixtureRun('m', 'main');
    const one = main.task({ taskId: 'a', agentName: 'explore', description: 'One' });
    const two = main.task({ taskId: 'b', agentName: 'explore', description: 'Two' });
    const bash = (callId: string) => ({ callId, name: 'bash', args: { command: 'ls' } });
    const source = new Subject<AgentEvent>();
    const { output, writes } = fakeTty();
    source.pipe(liveTree({ output, intervalMs: 80 })).subscribe();
    source.next(main.start('Survey'));
    source.next(one.start('x'));
    source.next(two.start('y'));
    source.next(one.approvalPending(bash('c1'), 'bash asks'));
    const frozen = writes.length;
    expect(writes.map((w) => w.text).join('').replace(ANSI, '')).toContain('explore One (0.0s) ⏸ approval: bash');
    expect(vi.getTimerCount()).toBe(0);
    source.next(two.approvalPending(bash('c2'), 'bash asks'));
    source.next(one.approvalDecided(bash('c1'), 'approve'));
    vi.advanceTimersByTime(400);
    expect(writes.length).toBe(frozen); // one still pending: nothing drawn over the question
    source.next(two.approvalDecided(bash('c2'), 'reject'));
    expect(writes.length).toBeGreaterThan(frozen);
    expect(vi.getTimerCount()).toBe(1);
    // the frame the question was asked under is never erased: no cursor-up after it
    expect(writes.slice(frozen).map((w) => w.text).join('')).not.toMatch(/\u001b\[\d*A/);
    source.complete();
    expect(vi.getTimerCount()).toBe(0);
  });

  it('stops its timer when unsubscribed and shows what was running as cancelled', () => {
    vi.useFakeTimers();
    const main = new FixtureRun('m', 'main');
    const source = new Subject<AgentEvent>();
    const { output, writes } = fakeTty();
    const subscription: Subscription = source.pipe(liveTree({ output, color: false })).subscribe();
    source.next(main.start('Survey'));
    expect(vi.getTimerCount()).toBe(1);
    subscription.unsubscribe();
    expect(vi.getTimerCount()).toBe(0);
    expect(source.observed).toBe(false);
    expect(writes.map((w) => w.text).join('').replace(ANSI, '')).toContain('⊘ main Survey (0.0s) cancelled: stopped'); // cancelled only, never also failed
  });

  it('rejects an interval that is not a positive number', () => {
    const { output } = fakeTty();
    expect(() => liveTree({ output, intervalMs: 0 })).toThrow('intervalMs must be a positive number of milliseconds, got 0');
  });
});
