import fc from 'fast-check';
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

  it('answer text is merged whole and in order, never dropped; progress keeps its place among it', () => {
    coalescer.add(delta('text', 'a'));
    for (const piece of ['b', 'c', 'd']) coalescer.add(delta('text', piece));
    coalescer.add(delta('thinking', 'working\n'));
    coalescer.add(delta('text', 'e'));
    expect(forwarded.map((e) => [e.kind, e.text])).toEqual([['text', 'a']]);
    vi.advanceTimersByTime(FORWARD_INTERVAL_MS);
    expect(forwarded.map((e) => [e.kind, e.text])).toEqual([['text', 'a'], ['text', 'bcd'], ['thinking', 'working\n'], ['text', 'e']]);
  });

  it('interleaved kinds keep their order of arrival: only neighbours of the same kind merge', () => {
    coalescer.add(delta('thinking', 'start\n'));
    coalescer.add(delta('text', 'The answer'));
    coalescer.add(delta('thinking', 'checking\n'));
    coalescer.add(delta('thinking', 'still checking\n'));
    coalescer.add(delta('text', ' is'));
    coalescer.add(delta('text', ' 42'));
    coalescer.add(delta('thinking', 'done\n'));
    vi.advanceTimersByTime(FORWARD_INTERVAL_MS);
    expect(forwarded.map((e) => [e.kind, e.text])).toEqual([
      ['thinking', 'start\n'],
      ['text', 'The answer'],
      ['thinking', 'still checking\n'],
      ['text', ' is 42'],
      ['thinking', 'done\n'],
    ]);
  });

  it('property: whatever the arrivals and the timer, the forwarded sequence, neighbours of a kind joined, is the input so joined', () => {
    // Joining neighbours of a kind: answer text concatenated, progress its latest message.
    const joined = (events: readonly { kind: 'text' | 'thinking'; text: string }[]) =>
      events.reduce<{ kind: string; text: string }[]>((runs, { kind, text }) => {
        const last = runs.at(-1);
        if (last?.kind !== kind) runs.push({ kind, text });
        else last.text = kind === 'text' ? last.text + text : text;
        return runs;
      }, []);
    const step = fc.oneof(
      fc.record({ kind: fc.constantFrom('text' as const, 'thinking' as const), text: fc.string({ minLength: 1, maxLength: 3 }) }),
      fc.constant('tick' as const),
    );
    fc.assert(
      fc.property(fc.array(step, { maxLength: 40 }), (steps) => {
        forwarded = [];
        coalescer.close();
        coalescer = new DeltaCoalescer((event) => forwarded.push(event));
        const input = steps.filter((s) => s !== 'tick');
        for (const s of steps) {
          if (s === 'tick') vi.advanceTimersByTime(FORWARD_INTERVAL_MS);
          else coalescer.add(delta(s.kind, s.text));
        }
        coalescer.flush();
        expect(joined(forwarded)).toEqual(joined(input));
      }),
      { numRuns: 500 },
    );
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
