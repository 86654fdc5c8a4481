/**
 * A node's tool calls without a copy of the whole list per item. The reducer is pure: every
 * state kept its own `tools` array, so each tool start copied the node's list (20,000 calls
 * took seconds to fold: quadratic). Here a node with many calls keeps them in a persistent
 * vector (a trie of 32-slot arrays): adding a call or changing one copies one path of
 * arrays, O(log n), and shares the rest with the states before, which keep theirs. A
 * state's `tools` array is made the first time it is read, and then kept (`lazy-fields.ts`).
 *
 * Which call an id names last, which calls still go, and which wait for a human's decision
 * (so a reader asking how many wait, or which, pays for those alone) is kept beside the lists
 * of one line (each made from the one before): mutable, owned by the newest list only. An
 * older list changed again (a fork) makes its own from its calls, as `tree-index.ts` does.
 *
 * @module
 */
import type { LazyArray } from './lazy-fields.js';
import type { ToolCallRecord } from './tree-state.js';

const SHIFT = 5;
const WIDTH = 1 << SHIFT;
const MASK = WIDTH - 1;

/** A trie's array: calls at the bottom level, arrays of the level below above it. */
type Slots = readonly Slot[];
type Slot = ToolCallRecord | Slots;

/** What the lists of one line share: the position each call id was last used at, the calls still going, and those waiting for a decision. */
interface Line {
  head: ToolList | undefined;
  readonly latest: Map<string, number>;
  readonly going: Set<number>;
  readonly waiting: Set<number>;
}

let copied = 0;

/** How many slots all lists have copied so far: the work of their changes, which tests and benches count. */
export function copiedSlots(): number {
  return copied;
}

/** One version of a node's tool calls: never changed once made (its array, once read, is kept). */
export class ToolList implements LazyArray<ToolCallRecord> {
  #array: readonly ToolCallRecord[] | undefined;
  #line: Line;

  private constructor(
    /** How many calls it holds. */
    readonly length: number,
    private readonly root: Slots,
    /** The bit shift of the root's level (0: the root holds calls). */
    private readonly shift: number,
    line: Line | undefined,
  ) {
    this.#line = line ?? lineOf(this);
    this.#line.head = this;
  }

  /** A list of `records` (a plain array a node had). */
  static of(records: readonly ToolCallRecord[]): ToolList {
    let level: Slots[] = chunks(records);
    let shift = 0;
    while (level.length > 1) {
      level = chunks(level);
      shift += SHIFT;
    }
    copied += records.length;
    return new ToolList(records.length, level[0] ?? [], shift, undefined);
  }

  /** The call at `i`, or undefined past the end. */
  at(i: number): ToolCallRecord | undefined {
    if (!(i >= 0 && i < this.length)) return undefined;
    let slots = this.root;
    for (let shift = this.shift; shift > 0; shift -= SHIFT) slots = slots[(i >>> shift) & MASK] as Slots;
    return slots[i & MASK] as ToolCallRecord;
  }

  /** The calls as an array, made on first read and then the same array each time. */
  read(): readonly ToolCallRecord[] {
    if (this.#array === undefined) {
      const records: ToolCallRecord[] = [];
      collect(this.root, this.shift, records);
      this.#array = records;
    }
    return this.#array;
  }

  /** The position of the latest call of `callId` (a model may reuse an id across steps), or -1. */
  latest(callId: string): number {
    return this.#own().latest.get(callId) ?? -1;
  }

  /** How many calls still go (running, or waiting for a human). */
  get goingCount(): number {
    return this.#own().going.size;
  }

  /** How many calls wait for a human's decision (see {@link waitsForDecision}). */
  get waitingCount(): number {
    return this.#own().waiting.size;
  }

  /** The positions of the calls waiting for a human's decision, in order. */
  waitingPositions(): number[] {
    return [...this.#own().waiting].sort((a, b) => a - b);
  }

  /** A list with `record` after the others. */
  appended(record: ToolCallRecord): ToolList {
    const line = this.#own();
    const i = this.length;
    // full: a new root above this one, so the trie grows a level
    const full = i === WIDTH << this.shift;
    const root = assoc(full ? [this.root] : this.root, full ? this.shift + SHIFT : this.shift, i, record);
    const next = new ToolList(i + 1, root, full ? this.shift + SHIFT : this.shift, line);
    line.latest.set(record.callId, i);
    note(line, i, record);
    return next;
  }

  /** A list with `record` (the same call, changed) at `i` in place of the one there. */
  replaced(i: number, record: ToolCallRecord): ToolList {
    const line = this.#own();
    const next = new ToolList(this.length, assoc(this.root, this.shift, i, record), this.shift, line);
    note(line, i, record);
    return next;
  }

  /** A list with every call still going changed by `settle` (this list when none goes). */
  settled(settle: (record: ToolCallRecord) => ToolCallRecord): ToolList {
    let list: ToolList = this;
    for (const i of [...this.#own().going].sort((a, b) => a - b)) list = list.replaced(i, settle(list.at(i)!));
    return list;
  }

  /** The line's shared knowledge, made from this list's calls when it is not the newest of its line. */
  #own(): Line {
    if (this.#line.head !== this) {
      this.#line = lineOf(this);
      this.#line.head = this;
    }
    return this.#line;
  }
}

function lineOf(list: ToolList): Line {
  const line: Line = { head: undefined, latest: new Map(), going: new Set(), waiting: new Set() };
  list.read().forEach((record, i) => {
    line.latest.set(record.callId, i);
    note(line, i, record);
  });
  return line;
}

/** Records in `line` whether the call at `i`, now `record`, goes and waits for a decision. */
function note(line: Line, i: number, record: ToolCallRecord): void {
  if (isGoing(record)) line.going.add(i);
  else line.going.delete(i);
  if (waitsForDecision(record)) line.waiting.add(i);
  else line.waiting.delete(i);
}

function isGoing(record: ToolCallRecord): boolean {
  return record.status === 'running' || record.status === 'waiting';
}

/** Whether `record` waits for a human: `waiting`, with an approval not yet decided (what `waitingApprovals` lists). */
export function waitsForDecision(record: ToolCallRecord): boolean {
  return record.status === 'waiting' && record.approval !== undefined && record.approval.decision === undefined;
}

/** `slots` with `record` at position `i` of the trie below it: new arrays on the path only. */
function assoc(slots: Slots | undefined, shift: number, i: number, record: ToolCallRecord): Slots {
  const copy: Slot[] = slots === undefined ? [] : slots.slice();
  copied += copy.length;
  const at = (i >>> shift) & MASK;
  copy[at] = shift === 0 ? record : assoc(copy[at] as Slots | undefined, shift - SHIFT, i, record);
  return copy;
}

/** `items` in arrays of `WIDTH`: one level of a trie. */
function chunks(items: readonly Slot[]): Slots[] {
  const level: Slots[] = [];
  for (let i = 0; i < items.length; i += WIDTH) level.push(items.slice(i, i + WIDTH));
  return level;
}

/** The calls below `slots`, in order, onto `into`. */
function collect(slots: Slots, shift: number, into: ToolCallRecord[]): void {
  if (shift === 0) for (const slot of slots) into.push(slot as ToolCallRecord);
  else for (const slot of slots) collect(slot as Slots, shift - SHIFT, into);
}
