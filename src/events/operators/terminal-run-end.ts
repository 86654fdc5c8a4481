import { filter, take, type OperatorFunction } from 'rxjs';
import type { AgentEvent, RunEndEvent } from '../agent-event.js';
import { isRunEnd } from '../guards.js';

/**
 * Keeps only the stream's own terminal `RunEnd` (the unwrapped one) and completes with it.
 * Children's `RunEnd`s arrive wrapped in `TaskWrap` events and are never mistaken for it.
 * If the run errors (or is aborted) there is no `RunEnd`, and the error passes through.
 *
 * @example
 * ```ts
 * const end = await lastValueFrom(engine.stream('Summarise README.md').pipe(terminalRunEnd()));
 * console.log(end.abnormal ? `failed: ${end.error}` : end.text);
 * ```
 */
export function terminalRunEnd(): OperatorFunction<AgentEvent, RunEndEvent> {
  return (source) => source.pipe(filter(isRunEnd), take(1));
}
