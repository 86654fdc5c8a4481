import type { Subscriber } from 'rxjs';
import type { ChildRun } from '../delegation/run-child.js';
import type { AgentEvent } from '../events/agent-event.js';

/** How many skipped entries of one child's log each get a Warning (the rest are skipped silently). */
const MAX_BAD_ENTRY_WARNINGS = 5;

/**
 * Turns the entries of a child's log that its reader skipped (not events of the run, or out
 * of its worker's order, a second `RunStart` included: written by someone else than its
 * worker) into `Warning` events of the child,
 * which its parent relays like any of its events; the first few only, so a flood of garbage
 * is not relayed as a flood of warnings.
 *
 * @internal
 */
export function badEntryWarnings(child: ChildRun, out: Subscriber<AgentEvent>): { onBad: (problem: string) => void; seen: (event: AgentEvent) => void } {
  let count = 0;
  // The child's run id once its RunStart came (the task id before): the reader delivers one only.
  let runId = child.taskId;
  const seen = (event: AgentEvent): void => {
    if (event.type === 'RunStart') runId = event.runId;
  };
  const onBad = (problem: string): void => {
    if (++count > MAX_BAD_ENTRY_WARNINGS) return;
    const more = count === MAX_BAD_ENTRY_WARNINGS ? ' Further bad entries of this log are skipped without a warning.' : '';
    out.next({
      type: 'Warning',
      runId,
      agentName: child.agent.name,
      code: 'bad-log-entry',
      message: `Skipped an entry of the event log of task ${child.taskId} in Redis: ${problem}.${more}`,
    });
  };
  return { onBad, seen };
}
