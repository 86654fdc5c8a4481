import type { AgentEvent } from '../events/agent-event.js';
import { valueBytes } from '../events/value-bytes.js';
import { innermost } from './delta-shape.js';

/** What a kept delta costs besides its text: its slot, offset and length in typed arrays. */
const DELTA_OVERHEAD = 12;

/**
 * About how many bytes a run's event log holds for `event`: for a text delta its text
 * (kept in its stream's rope, `event-store.ts`) and a few numbers; for any other event its
 * strings at two bytes a character, its numbers, and an allowance per object. An estimate
 * that grows with what is kept (a 1 MB prompt counts 2 MB), cheap enough to run on every
 * event a started run logs: it walks the event, allocating nothing.
 *
 * @example
 * ```ts
 * eventBytes({ type: 'RunStart', runId: 'r', agentName: 'main', prompt: 'hi' }); // ~70
 * ```
 */
export function eventBytes(event: AgentEvent): number {
  const inner = innermost(event);
  if (inner.type === 'ReasonDelta') return 2 * inner.text.length + DELTA_OVERHEAD;
  return valueBytes(event);
}
