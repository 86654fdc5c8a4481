import type { AgentEvent } from '../events/agent-event.js';
import { innermost, sameShape, shapeable, withText } from './delta-shape.js';
import { TextRope } from './text-rope.js';

/** The numbers kept per event in `#events`: slot, offset, length. */
const FIELDS = 3;

/** A delta stream: the shape its deltas share and their texts. */
interface Stream {
  readonly shape: AgentEvent;
  readonly text: TextRope;
}

/**
 * One run's events, by index, kept so that a run of tens of thousands of deltas costs the
 * garbage collector next to nothing: a delta is a number in typed arrays (its stream, where
 * its text starts, its length) and its text goes into its stream's {@link TextRope}; only the
 * other events, a few per step, are kept as objects. `at` rebuilds an equal event
 * (`delta-shape.ts` says when a delta may be kept as its stream's shape).
 *
 * @internal
 */
export class EventStore {
  /**
   * Per event, three numbers: its slot (its stream's index, or `-1 - i` for the event kept
   * whole at `#whole[i]`, stored as its 32 bits and read back with `| 0`), where its text
   * starts in its stream's rope, and its length. One array, not three: a run's log grows (and
   * is trimmed at its end) by one buffer allocated and copied, not three.
   */
  #events = new Uint32Array(FIELDS * 16);
  readonly #whole: AgentEvent[] = [];
  readonly #streams: Stream[] = [];
  /** Each delta stream's current index, by the innermost run's id. */
  readonly #current = new Map<string, number>();
  /** The streams of each innermost run begun since its last `ReasonEnd`: compacted at the next one. */
  readonly #open = new Map<string, number[]>();
  #count = 0;

  /** How many events are kept. */
  get length(): number {
    return this.#count;
  }

  /** How many strings the deltas' texts are kept in, over all streams (see `TextRope.strings`). */
  get textStrings(): number {
    let strings = 0;
    for (const stream of this.#streams) strings += stream.text.strings;
    return strings;
  }

  /** Keeps `event` as the next one. */
  push(event: AgentEvent): void {
    if (this.#count * FIELDS === this.#events.length) this.#resize(this.#count * 2);
    const at = this.#count++ * FIELDS;
    const inner = innermost(event);
    if (inner.type === 'ReasonDelta') {
      let index = this.#current.get(inner.runId);
      if (index === undefined || !sameShape(this.#streams[index]!.shape, event)) {
        index = shapeable(event) ? this.#streams.push({ shape: event, text: new TextRope() }) - 1 : undefined;
        if (index !== undefined) this.#begin(inner.runId, index);
      }
      if (index !== undefined) {
        this.#events[at] = index;
        this.#events[at + 1] = this.#streams[index]!.text.append(inner.text);
        this.#events[at + 2] = inner.text.length;
        return;
      }
    }
    const whole = this.#whole.push(event) - 1;
    this.#events[at] = -1 - whole;
    if (inner.type === 'ReasonEnd') this.#compact(inner.runId, inner.text);
  }

  /** The event at `index` (from 0), equal to the one pushed there. */
  at(index: number): AgentEvent {
    const at = index * FIELDS;
    const slot = this.#events[at]! | 0;
    if (slot < 0) return this.#whole[-1 - slot]!;
    const stream = this.#streams[slot]!;
    return withText(stream.shape, stream.text.slice(this.#events[at + 1]!, this.#events[at + 2]!));
  }

  /** No more pushes: every stream's text is compacted, the lookups and the arrays' room to grow are let go. */
  seal(): void {
    for (const stream of this.#streams) stream.text.compact();
    this.#current.clear();
    this.#open.clear();
    this.#resize(this.#count);
  }

  #begin(runId: string, index: number): void {
    this.#current.set(runId, index);
    const open = this.#open.get(runId);
    if (open) open.push(index);
    else this.#open.set(runId, [index]);
  }

  /**
   * The step's message is complete (its `ReasonEnd`): its streams' pieces are joined now, so a
   * run that goes on (its next step, its other tasks) keeps a string per stream, not one per
   * delta; and the answer's stream, when its text is the `ReasonEnd`'s, keeps that string
   * rather than a second copy. A stream that gets more deltas later still reads back the same.
   */
  #compact(runId: string, text: string): void {
    const open = this.#open.get(runId);
    if (!open) return;
    for (const index of open) {
      const stream = this.#streams[index]!;
      const inner = innermost(stream.shape);
      stream.text.compact(inner.type === 'ReasonDelta' && inner.kind === 'text' ? text : undefined);
    }
    this.#open.delete(runId);
  }

  /** Room for `size` events, the first `#count` kept (`size` is never below it). */
  #resize(size: number): void {
    const length = size * FIELDS;
    if (length === this.#events.length) return;
    if (length < this.#events.length) {
      this.#events = this.#events.slice(0, length);
      return;
    }
    const events = new Uint32Array(length);
    events.set(this.#events);
    this.#events = events;
  }
}
