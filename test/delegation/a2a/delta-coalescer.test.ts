import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ReasonDeltaEvent } from '../../../src/events/agent-event.js';
import { DeltaCoalescer, FORWARD_INTERVAL_MS } from '../../../src/delegation/a2a/delta-coalescer.js';

const delta = (kind: 'text' | 'thinking', text: string): ReasonDeltaEvent => ({ type: 'ReasonDelta', runId: 'run_1', agentName: 'remote', step: 1, kind, text });

let forwarded: ReasonDeltaEvent[];
let coalescer: DeltaCoalescer;
beforeEach(() => {
  vi.useFakeTimers();
  forwarded = [];
  coalescer = new DeltaCoalescer((event) => forwarded.push(event));
});
afterEach(() => {
  coalescer.close();
  vi.useRealTimers();
});

describe("DeltaCoalescer: a remote task's deltas, bounded however fast they come", () => {
  it('10,000 status updates at once: the first goes at once, then one per interval, holding only the latest', () => {
    for (let i = 1; i <= 10_000; i++) coalescer.add(delta('thinking', `tick ${i}\n`));
    expect(forwarded.map((e) => e.text)).toEqual(['tick 1\n']);
    vi.advanceTimersByTime(FORWARD_INTERVAL_MS);
    expect(forwarded.map((e) => e.text)).toEqual(['tick 1\n', 'tick 10000\n']);
    // Nothing came since: the timer stops by itself.
    vi.advanceTimersByTime(FORWARD_INTERVAL_MS);
    expect(vi.getTimerCount()).toBe(0);
    expect(forwarded).toHaveLength(2);
  });

  it('answer text is merged whole and in order, never dropped; progress goes before it', () => {
    coalescer.add(delta('text', 'a'));
    for (const piece of ['b', 'c', 'd']) coalescer.add(delta('text', piece));
    coalescer.add(delta('thinking', 'working\n'));
    coalescer.add(delta('text', 'e'));
    expect(forwarded.map((e) => [e.kind, e.text])).toEqual([['text', 'a']]);
    vi.advanceTimersByTime(FORWARD_INTERVAL_MS);
    expect(forwarded.map((e) => [e.kind, e.text])).toEqual([['text', 'a'], ['thinking', 'working\n'], ['text', 'bcde']]);
  });

  it('flush forwards what waits at once; close leaves no timer and drops the rest', () => {
    coalescer.add(delta('text', 'a'));
    coalescer.add(delta('text', 'b'));
    coalescer.flush();
    expect(forwarded.map((e) => e.text)).toEqual(['a', 'b']);
    coalescer.add(delta('text', 'c'));
    coalescer.close();
    expect(vi.getTimerCount()).toBe(0);
    vi.advanceTimersByTime(10 * FORWARD_INTERVAL_MS);
    expect(forwarded.map((e) => e.text)).toEqual(['a', 'b']);
  });
});
