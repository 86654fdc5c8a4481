import { defer, type Observable } from 'rxjs';
import type { AgentEvent } from '../events/agent-event.js';
import type { ChatMessage } from '../model/chat-message.js';
import { checkHistory, skippedReport } from '../session/check-history.js';
import { repairStoredHistory } from '../session/repair-history.js';
import type { AgentScope } from './agent-scope.js';
import { maybeThen$ } from './maybe.js';
import { namedTail } from './named-tail.js';
import type { RunInput } from './run-scope.js';
import type { RunState } from './run-state.js';

/** A session's history as a run can send it, and the `Warning`s of its load (one for all the entries it skipped). */
export interface LoadedHistory {
  readonly history: readonly ChatMessage[];
  readonly warnings: readonly AgentEvent[];
}

/**
 * Loads the run's session (nothing for an ephemeral run), checks every entry the store
 * returned (malformed ones are skipped, with one `Warning` for all; a store answer that is not
 * a list fails the run) and repairs what a strict chat template would refuse (with a `Warning`:
 * unanswered or orphaned tool calls, turns without an answer; an interrupted `task` call's
 * result names the task to resume, see `namedTail`); the top run of a
 * conversation also reads its stored "always" approvals again (one read per run: the store
 * is their truth, see `ApprovalGrants.open`). Continues with `then` (the run's
 * setup), in the stream's place: no operator between the lookups (see `maybeThen$`).
 */
export function loadHistory$<R>(agent: AgentScope, input: RunInput, run: RunState, then: (loaded: LoadedHistory) => Observable<R>): Observable<R> {
  if (input.ephemeral) return defer(() => then({ history: [], warnings: [] }));
  const warning = (code: string, message: string): AgentEvent => ({ type: 'Warning', runId: run.runId, agentName: run.agentName, code, message });
  // A conversation's "always" approvals live in its store: its top run reads them, under its
  // claim, so no delete falls between the read and the run's calls; its tasks here share them
  // (a worker reads them at each job's start, see HarnessWorker).
  const openGrants = (): number | Promise<number> => (agent.task ? 0 : agent.grants.open(input.sessionId, agent.sessions));
  return maybeThen$(
    () => agent.sessions.load(input.sessionId),
    (stored) =>
      maybeThen$(openGrants, (badGrants) => {
        const checked = checkHistory(stored, input.sessionId);
        const { messages } = checked;
        const skipped = skippedReport(checked, input.sessionId);
        const warnings = skipped === undefined ? [] : [warning('session-entry-skipped', skipped)];
        if (badGrants > 0) warnings.push(warning('grant-skipped', `Skipped ${badGrants} stored approval(s) of session "${input.sessionId}" that were not { toolName, subject? } or not signed by the store (planted, copied, or from an older version): they grant nothing, so those calls are asked again.`));
        const { messages: history, repairs } = repairStoredHistory(messages);
        if (repairs.length === 0) return then({ history, warnings });
        // Never stored so by this version: an older one, a crash or another program left it.
        warnings.push(warning('session-repaired', `Repaired the stored history of session "${input.sessionId}" so that strict chat templates accept it: ${repairs.join('; ')}.`));
        // A repair at the end only (a turn a crash left open): saved, so it is made (and told) once.
        const tail = appendedTail(messages, history);
        if (tail.length === 0) return then({ history, warnings });
        return maybeThen$(
          () => namedTail(agent, input, messages, tail),
          (saved) => maybeThen$(() => agent.sessions.append(input.sessionId, saved), () => then({ history: [...messages, ...saved], warnings })),
        );
      }),
  );
}

/** What `repaired` adds after the whole of `stored`, or nothing when it changed anything before. */
function appendedTail(stored: readonly ChatMessage[], repaired: readonly ChatMessage[]): readonly ChatMessage[] {
  if (repaired.length <= stored.length || !stored.every((m, i) => repaired[i] === m)) return [];
  return repaired.slice(stored.length);
}
