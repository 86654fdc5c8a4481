import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { AgentEvent } from '../../src/events/agent-event.js';
import { eventJson } from '../../src/runs/event-json.js';

/** A child's event wrapped as it reaches the main run's log; `depth` 2: a grandchild's. */
const wrapped = (runId: string, event: AgentEvent, depth = 1): AgentEvent => {
  let out = event;
  for (let i = 0; i < depth; i++) {
    out = { type: 'TaskWrap', runId: `${runId}-parent${i}`, agentName: 'main', parentRunId: 'main', taskId: `t_${runId}`, taskIndex: 1, taskAgentName: 'general', taskDescription: 'd', multitask: true, event: out };
  }
  return out;
};
const delta = (runId: string, text: string, step = 1): AgentEvent => ({ type: 'ReasonDelta', runId, agentName: runId, step, kind: 'text', text });

/** A delta its stream's cached JSON must not be used for (`how`: which way it differs). */
const oddDelta = (runId: string, text: string, how: number): AgentEvent => {
  const plain = delta(runId, text);
  if (how === 0) return { text, kind: 'text', step: 1, agentName: runId, runId, type: 'ReasonDelta' };
  if (how === 1) return { ...plain, extra: 'forged' } as unknown as AgentEvent;
  if (how === 2) return { ...plain, agentName: undefined } as unknown as AgentEvent;
  return { type: 'ReasonDelta', runId, agentName: runId, step: 1, kind: 'thinking', text };
};

describe('eventJson (the JSON of each event a reader sends, its deltas from their stream\'s cached JSON)', () => {
  it('writes exactly what JSON.stringify writes, for interleaved children, grandchildren, escapes and step ends', () => {
    const runs = fc.constantFrom('c1', 'c2', 'main');
    const event = fc.oneof(
      { weight: 6, arbitrary: fc.record({ run: runs, text: fc.string({ unit: 'binary', maxLength: 5 }), step: fc.integer({ min: 1, max: 2 }), depth: fc.nat(2) }).map((e) => wrapped(e.run, delta(e.run, e.text, e.step), e.run === 'main' ? 0 : e.depth)) },
      { weight: 1, arbitrary: runs.map((run): AgentEvent => wrapped(run, { type: 'ReasonEnd', runId: run, agentName: run, step: 1, text: 'x', toolCalls: [], durationMs: 1 }, run === 'main' ? 0 : 1)) },
      // A delta that is not its stream's shape: keys reordered, a field of its own, one undefined, another kind.
      { weight: 2, arbitrary: fc.record({ run: runs, text: fc.string({ maxLength: 3 }), how: fc.nat(3) }).map((e) => wrapped(e.run, oddDelta(e.run, e.text, e.how), e.run === 'main' ? 0 : 1)) },
    );
    fc.assert(
      fc.property(fc.array(event, { maxLength: 40 }), (events) => {
        const toJson = eventJson();
        for (const e of events) expect(toJson(e)).toBe(JSON.stringify(e));
      }),
    );
  });

  it('does not reuse a stream\'s JSON for a delta whose keys come in another order', () => {
    const toJson = eventJson();
    toJson(wrapped('c1', delta('c1', 'a')));
    // the same fields and values, built in another order: its JSON differs, so must the output
    const reordered: AgentEvent = wrapped('c1', { text: 'b', type: 'ReasonDelta', kind: 'text', step: 1, agentName: 'c1', runId: 'c1' });
    expect(toJson(reordered)).toBe(JSON.stringify(reordered));
    const outerReordered = { ...(wrapped('c1', delta('c1', 'c')) as object), type: 'TaskWrap' } as AgentEvent;
    expect(toJson(outerReordered)).toBe(JSON.stringify(outerReordered));
  });

  it('serialises whole a delta with a field of its own, and the plain delta after it', () => {
    const toJson = eventJson();
    const extra = { ...delta('c1', 'a'), note: 'kept' } as unknown as AgentEvent;
    expect(toJson(extra)).toBe(JSON.stringify(extra));
    const plain = delta('c1', 'b');
    expect(toJson(plain)).toBe(JSON.stringify(plain));
    expect(toJson(extra)).toBe(JSON.stringify(extra));
  });

  it('puts each event\'s JSON, deltas\' from the cache too, between the text given around it', () => {
    const toFrame = eventJson(',"event":', '}\n\n');
    const events = [delta('c1', 'a'), delta('c1', 'b"\n'), wrapped('c2', delta('c2', 'c')), wrapped('c2', delta('c2', 'd')), delta('c1', 'e')];
    for (const e of events) expect(toFrame(e)).toBe(`,"event":${JSON.stringify(e)}}\n\n`);
  });

  it('follows a change of step, kind or task in the same run', () => {
    const toJson = eventJson();
    const events: AgentEvent[] = [
      delta('c1', 'a'),
      delta('c1', 'b', 2),
      { ...delta('c1', 'c', 2), kind: 'thinking' } as AgentEvent,
      wrapped('c1', delta('c1', 'd', 2)),
      { ...(wrapped('c1', delta('c1', 'e', 2)) as object), taskIndex: 2 } as AgentEvent,
    ];
    for (const e of events) expect(toJson(e)).toBe(JSON.stringify(e));
  });

  it('writes a delta\'s text from its stream\'s JSON exactly as JSON.stringify does, for every character that needs escaping and the ones around them', () => {
    const codes = [...Array.from({ length: 0x80 }, (_, c) => c), 0x7f, 0x80, 0x9f, 0xa0, 0x2028, 0x2029, 0xd7ff, 0xd800, 0xdbff, 0xdc00, 0xdfff, 0xe000, 0xfeff, 0xffff];
    const texts = ['', 'plain', 'a"b', 'a\\b', '\u{1f600}', 'x\u{1f600}y', '\ud83dx', 'x\ude00', ...codes.map((c) => String.fromCharCode(c)), ...codes.map((c) => `ab${String.fromCharCode(c)}cd`)];
    const toFrame = eventJson(',"event":', '}\n\n');
    toFrame(wrapped('c1', delta('c1', 'first'))); // the stream's JSON is made: each text below is written from it
    for (const text of texts) {
      const e = wrapped('c1', delta('c1', text));
      expect(toFrame(e)).toBe(`,"event":${JSON.stringify(e)}}\n\n`);
    }
  });
});
