/**
 * A page that gets UI items (or events) over a socket folds whatever arrives into the one
 * reducer: `null`, a number, an item with a field missing or of the wrong type, in any order,
 * repeated. The reducer must leave the tree as it was for those, never throw, and leave no
 * state that throws when it is drawn, queried or settled later.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createTreeState, reduceTree, renderTree, settleTree, toUiItem, treeRows, waitingApprovals, type TaskTreeState, type UiItem } from '../../../src/adapters/index.js';
import type { AgentEvent } from '../../../src/events/index.js';
import { multitaskRun, nestedRun } from '../fixtures.js';

const EVENTS: AgentEvent[] = [...multitaskRun().events, ...nestedRun().events];
const ITEMS: UiItem[] = EVENTS.map(toUiItem).filter((item): item is UiItem => item !== undefined);

type Input = AgentEvent | UiItem;
/** An item or event of the fixtures with one field removed or replaced by anything at all. */
const broken: fc.Arbitrary<unknown> = fc
  .record({ source: fc.constantFrom<Input>(...ITEMS, ...EVENTS), pick: fc.nat(), value: fc.option(fc.anything(), { nil: undefined }) })
  .map(({ source, pick, value }) => {
    const copy: Record<string, unknown> = { ...source };
    const keys = Object.keys(copy).filter((k) => k !== 'kind' && k !== 'type');
    const key = keys[pick % keys.length]!;
    if (value === undefined) delete copy[key];
    else copy[key] = value;
    return copy;
  });
const garbage = fc.oneof(fc.constant(null), fc.constant(undefined), fc.integer(), fc.string(), fc.array(fc.anything(), { maxLength: 3 }));

/** Everything a page does with a state, which must never throw either. */
function use(state: TaskTreeState, now: number): void {
  renderTree(state, { now, width: 120 });
  treeRows(state);
  waitingApprovals(state);
}

describe('reduceTree fed broken input', () => {
  it('leaves the tree as it was for null, a number, a string, an array', () => {
    const state = reduceTree(createTreeState(), EVENTS[0]!, 0);
    for (const value of [null, undefined, 0, 42, 'RunEnd', [], [EVENTS[1]]]) {
      expect(reduceTree(state, value as unknown as Input, 1)).toBe(state);
    }
  });

  it('leaves the tree as it was for a UI item missing a field its kind promises', () => {
    const state = reduceTree(createTreeState(), EVENTS[0]!, 0);
    const tool = ITEMS.find((i) => i.kind === 'tool-start')!;
    const end = ITEMS.find((i) => i.kind === 'task-end')!;
    const cases: unknown[] = [
      { kind: 'run-start' },
      { ...tool, toolName: undefined },
      { ...tool, depth: 'x' },
      { ...end, metrics: null },
      { ...end, taskId: undefined },
      { kind: 'text-delta', runId: 'r', agentName: 'a', depth: 0, step: 1, text: null },
      { kind: 'no-such-kind', runId: 'r', agentName: 'a', depth: 0 },
    ];
    for (const item of cases) expect(reduceTree(state, item as Input, 1)).toBe(state);
  });

  it('never throws, in any order, repeated, mixed with good input, and leaves a state that can be drawn', () => {
    const input = fc.array(fc.oneof({ arbitrary: fc.constantFrom<unknown>(...ITEMS, ...EVENTS), weight: 3 }, { arbitrary: broken, weight: 2 }, { arbitrary: garbage, weight: 1 }), {
      maxLength: 60,
    });
    fc.assert(
      fc.property(input, (values) => {
        let state = createTreeState();
        values.forEach((value, i) => {
          state = reduceTree(state, value as Input, i);
          use(state, i);
        });
        use(settleTree(state, values.length, 'the stream broke'), values.length + 1);
      }),
      { numRuns: 400 },
    );
  });

  it('still folds every well-formed item as an event would', () => {
    let fromItems = createTreeState();
    let fromEvents = createTreeState();
    for (const event of multitaskRun().events) {
      fromEvents = reduceTree(fromEvents, event, 1);
      const item = toUiItem(event);
      if (item) fromItems = reduceTree(fromItems, JSON.parse(JSON.stringify(item)) as UiItem, 1);
    }
    expect(treeRows(fromItems).map((r) => [r.node.key, r.node.status])).toEqual(treeRows(fromEvents).map((r) => [r.node.key, r.node.status]));
  });
});

describe('a child end passed off as the run\'s result', () => {
  it('is refused: the tree keeps running and has no result', () => {
    const { events } = multitaskRun();
    let state = createTreeState();
    for (const event of events.slice(0, -1)) state = reduceTree(state, event, 1);
    const childEnd = ITEMS.find((i) => i.kind === 'task-end')!;
    // the child's end with its kind changed, at its depth or claiming the top
    for (const forged of [{ ...childEnd, kind: 'result' }, { ...childEnd, kind: 'result', depth: 0 }]) {
      const next = reduceTree(state, forged as UiItem, 2);
      expect(next).toBe(state);
      expect(next.result).toBeUndefined();
      expect(next.root?.status).toBe('running');
    }
    expect(reduceTree(state, toUiItem(events.at(-1)!)!, 3).result).toMatchObject({ abnormal: false });
  });
});

describe('the run\'s own start and result with a task field present but undefined', () => {
  it('are folded as if the field were absent (as they are once sent as JSON)', () => {
    const { events } = multitaskRun();
    const start = toUiItem(events[0]!)!;
    const result = toUiItem(events.at(-1)!)!;
    expect([start.kind, result.kind]).toEqual(['run-start', 'result']);
    let state = reduceTree(createTreeState(), { ...start, taskId: undefined, groupKey: undefined } as UiItem, 1);
    expect(state.root?.status).toBe('running');
    state = reduceTree(state, { ...result, parentRunId: undefined, multitask: undefined } as UiItem, 2);
    expect(state.result).toMatchObject({ abnormal: false });
    // a task field that is set still refuses it
    expect(reduceTree(state, { ...result, taskId: 't' } as UiItem, 3)).toBe(state);
  });
});

describe('toUiItem fed values that are not events', () => {
  it('gives undefined for null, a TaskWrap around nothing, an unknown type', () => {
    const wrap = EVENTS.find((e) => e.type === 'TaskWrap')!;
    for (const value of [null, undefined, 7, { ...wrap, event: undefined }, { ...wrap, event: null }, { type: 'Nope', runId: 'r', agentName: 'a' }]) {
      expect(toUiItem(value as unknown as AgentEvent)).toBeUndefined();
    }
  });
});
