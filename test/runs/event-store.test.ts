import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { AgentEvent } from '../../src/events/agent-event.js';
import { EventStore } from '../../src/runs/event-store.js';

const RUNS = ['main', 'c1', 'c2'] as const;

/** A child's event arrives wrapped, as in a started run's log. */
const wrapped = (runId: string, event: AgentEvent): AgentEvent =>
  runId === 'main'
    ? event
    : { type: 'TaskWrap', runId: 'main', agentName: 'main', parentRunId: 'main', taskId: `t_${runId}`, taskIndex: 1, taskAgentName: 'general', taskDescription: 'd', multitask: true, event };
const delta = (runId: string, step: number, kind: 'text' | 'thinking', text: string): AgentEvent =>
  wrapped(runId, { type: 'ReasonDelta', runId, agentName: runId, step, kind, text });
const reasonEnd = (runId: string, step: number, text: string): AgentEvent =>
  wrapped(runId, { type: 'ReasonEnd', runId, agentName: runId, step, text, toolCalls: [], durationMs: 1 });

/** What happens next in a run of the scenario. */
type Op =
  | { readonly op: 'delta'; readonly run: number; readonly kind: 'text' | 'thinking'; readonly text: string }
  | { readonly op: 'end'; readonly run: number; readonly sameText: boolean }
  | { readonly op: 'other'; readonly run: number }
  | { readonly op: 'read'; readonly at: number };

const op: fc.Arbitrary<Op> = fc.oneof(
  { weight: 8, arbitrary: fc.record({ op: fc.constant('delta' as const), run: fc.nat(2), kind: fc.constantFrom('text' as const, 'thinking' as const), text: fc.oneof(fc.string({ maxLength: 6 }), fc.string({ unit: 'grapheme', maxLength: 3 })) }) },
  { weight: 2, arbitrary: fc.record({ op: fc.constant('end' as const), run: fc.nat(2), sameText: fc.boolean() }) },
  { weight: 1, arbitrary: fc.record({ op: fc.constant('other' as const), run: fc.nat(2) }) },
  { weight: 3, arbitrary: fc.record({ op: fc.constant('read' as const), at: fc.nat() }) },
);

/** Plays `ops` into a store, reading back at each cut point; returns the store and what was pushed. */
function play(ops: readonly Op[]): { store: EventStore; pushed: AgentEvent[] } {
  const store = new EventStore();
  const pushed: AgentEvent[] = [];
  const step = [1, 1, 1];
  const text = ['', '', '']; // each run's answer text of its current step
  const push = (event: AgentEvent): void => {
    store.push(event);
    pushed.push(event);
  };
  for (const o of ops) {
    if (o.op === 'read') {
      // a reader joining at any seq, at any moment: its first event and the last are as pushed
      if (pushed.length === 0) continue;
      const at = o.at % pushed.length;
      expect(store.at(at)).toEqual(pushed[at]);
      expect(store.at(pushed.length - 1)).toEqual(pushed.at(-1));
      continue;
    }
    const runId = RUNS[o.run]!;
    if (o.op === 'delta') {
      push(delta(runId, step[o.run]!, o.kind, o.text));
      if (o.kind === 'text') text[o.run] += o.text;
    } else if (o.op === 'end') {
      // the step's message complete: its ReasonEnd carries the whole text (or, to be sure
      // compaction never trusts it blindly, another text of the same length)
      const whole = o.sameText ? text[o.run]! : [...text[o.run]!].reverse().join('');
      push(reasonEnd(runId, step[o.run]!, whole));
      step[o.run]! += 1;
      text[o.run] = '';
    } else {
      push(wrapped(runId, { type: 'ActionEnd', runId, agentName: runId, step: step[o.run]! }));
    }
  }
  return { store, pushed };
}

describe('EventStore: deltas compacted once a step is complete', () => {
  it('property: read at any cut point, before and after compaction and after the seal, every event equals the one pushed', () => {
    fc.assert(
      fc.property(fc.array(op, { maxLength: 300 }), (ops) => {
        const { store, pushed } = play(ops);
        expect(store.length).toBe(pushed.length);
        pushed.forEach((event, i) => expect(store.at(i)).toEqual(event));
        store.seal();
        pushed.forEach((event, i) => expect(store.at(i)).toEqual(event));
      }),
      { numRuns: 300 },
    );
  });

  it("a step's deltas are one string once its ReasonEnd is kept, while the run goes on; every stream one string after the seal", () => {
    const store = new EventStore();
    const pieces = Array.from({ length: 60 }, (_, i) => `piece ${i}, `);
    for (const piece of pieces) store.push(delta('c1', 1, 'text', piece));
    for (const piece of pieces.slice(0, 10)) store.push(delta('c2', 1, 'thinking', piece));
    expect(store.textStrings).toBe(70); // fewer than 64 a stream: each still its own string
    store.push(reasonEnd('c1', 1, pieces.join('')));
    expect(store.textStrings).toBe(1 + 10); // c1's stream joined; c2's still streaming
    pieces.forEach((piece, i) => expect(store.at(i)).toEqual(delta('c1', 1, 'text', piece)));
    store.push(delta('c2', 1, 'thinking', 'more'));
    store.seal();
    expect(store.textStrings).toBe(2);
    expect(store.at(70)).toEqual(reasonEnd('c1', 1, pieces.join('')));
    expect(store.at(71)).toEqual(delta('c2', 1, 'thinking', 'more'));
  });

  it('a ReasonEnd whose text is not the deltas (same length) changes nothing they read back', () => {
    const store = new EventStore();
    store.push(delta('main', 1, 'text', 'ab'));
    store.push(delta('main', 1, 'text', 'cd'));
    store.push(reasonEnd('main', 1, 'dcba'));
    expect(store.at(0)).toEqual(delta('main', 1, 'text', 'ab'));
    expect(store.at(1)).toEqual(delta('main', 1, 'text', 'cd'));
    expect(store.textStrings).toBe(1);
  });
});
