import { EventType, type AGUIEvent } from '@ag-ui/core';
import type { TaskWrapEvent } from '../../events/agent-event.js';

/** An open subagent: the step it is shown in, and the subagent it runs under. */
interface OpenSubagent {
  readonly stepName: string;
  readonly parent: string | undefined;
}

/** How a subagent's segment ends: with its answer, or failed (`SUBAGENT_ERROR`). */
export type SubagentEnding = { readonly result: string } | { readonly message: string; readonly code: string };

/**
 * The subagents open in one AG-UI run, each shown as a step named after its task's
 * description (`STEP_STARTED`, then `SUBAGENT_STARTED`; closed in the reverse order). Two
 * tasks of the same description at once get distinct step names (AG-UI pairs steps by name).
 */
export class SubagentSteps {
  /** By subagent run id, in the order they opened. */
  readonly #open = new Map<string, OpenSubagent>();

  /**
   * Opens the subagent of `wrap` unless it is open: in the run that starts it, or again in a
   * later AG-UI run that continues the same invocation (its id stays the same).
   */
  open(wrap: TaskWrapEvent, parent: string | undefined, parentToolCallId: string | undefined): AGUIEvent[] {
    const id = wrap.runId;
    if (this.#open.has(id)) return [];
    const stepName = this.#freeName(wrap);
    this.#open.set(id, { stepName, parent });
    return [
      { type: EventType.STEP_STARTED, stepName, ...(parent === undefined ? {} : { subagentRunId: parent }) },
      {
        type: EventType.SUBAGENT_STARTED,
        subagentRunId: id,
        name: wrap.taskAgentName,
        description: wrap.taskDescription,
        ...(parent === undefined ? {} : { parentSubagentRunId: parent }),
        ...(parentToolCallId === undefined ? {} : { parentToolCallId }),
        metadata: { taskId: wrap.taskId, taskIndex: wrap.taskIndex },
      },
    ];
  }

  /** Ends a subagent's invocation (its own `RunEnd` or `RunCancelled`). */
  end(id: string, ending: SubagentEnding): AGUIEvent[] {
    const open = this.#open.get(id);
    if (open === undefined) return [];
    this.#open.delete(id);
    const closing: AGUIEvent =
      'result' in ending
        ? { type: EventType.SUBAGENT_FINISHED, subagentRunId: id, result: ending.result }
        : { type: EventType.SUBAGENT_ERROR, subagentRunId: id, message: ending.message, code: ending.code };
    return [closing, stepFinished(open)];
  }

  /** Closes every open subagent, innermost first: `suspended` ones go on after this AG-UI run. */
  closeAll(suspended: boolean): AGUIEvent[] {
    const out: AGUIEvent[] = [];
    for (const [id, open] of [...this.#open].reverse()) {
      out.push({ type: EventType.SUBAGENT_FINISHED, subagentRunId: id, ...(suspended ? { outcome: { type: 'suspended' as const } } : {}) }, stepFinished(open));
    }
    this.#open.clear();
    return out;
  }

  #freeName(wrap: TaskWrapEvent): string {
    const taken = new Set([...this.#open.values()].map((o) => o.stepName));
    const base = wrap.taskDescription.trim() || `${wrap.taskAgentName} task`;
    if (!taken.has(base)) return base;
    const numbered = `${base} (#${wrap.taskIndex})`;
    return taken.has(numbered) ? `${base} (${wrap.taskId})` : numbered;
  }
}

function stepFinished(open: OpenSubagent): AGUIEvent {
  return { type: EventType.STEP_FINISHED, stepName: open.stepName, ...(open.parent === undefined ? {} : { subagentRunId: open.parent }) };
}
