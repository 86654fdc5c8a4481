import { randomUUID } from 'node:crypto';
import { defaultIfEmpty, firstValueFrom } from 'rxjs';
import type { CompactionEvent } from '../events/agent-event.js';
import type { ChatMessage } from '../model/chat-message.js';
import { estimateTokens } from '../model/estimate-tokens.js';
import { checkHistory } from '../session/check-history.js';
import { compactMessages$ } from '../session/compaction/compact-messages.js';
import { contextWindowOf } from '../session/compaction/context-windows.js';
import { repairHistory } from '../session/repair-history.js';
import type { AgentScope } from './agent-scope.js';
import { requestSizing } from './compact-run.js';
import { summariser } from './compaction-summary.js';
import { runScopeOf } from './run-scope.js';
import { RunState } from './run-state.js';
import { whileClaimed } from './session-claims.js';
import { withAbortSignal } from './with-abort-signal.js';

/** The window a manual compaction sizes its summary by when the model's is unknown. */
const UNKNOWN_WINDOW = 32_768;

/**
 * Compacts a stored session on demand (`engine.compact`): the output of every tool result
 * before its last turn is pruned and everything before that turn is summarised by the
 * agent's summariser; the store replaces the session (keeping the transcript in its
 * archive). The session is claimed meanwhile, like a run's: a session in use is refused with
 * `SessionBusyError`. Resolves to the `Compaction` event it would stream (`runId` names this
 * compaction); nothing changes for a session with nothing to compact, nor for one already
 * under the compaction's target when no summary could be written (its counts are 0,
 * `summaryError` says why; over it, a note replaces the old turns, as in a run).
 * It is sized as a run's compaction is (`requestSizing`): the window less the system prompt,
 * the tool schemas and the room for the answer, and its token counts are the whole request's.
 * `signal` stops it (its summary request too) before the session is replaced.
 *
 * @throws Error when the store cannot replace a session (it has no `replace`); AbortError when `signal` aborts first.
 */
export async function compactStoredSession(agent: AgentScope, sessionId: string, signal?: AbortSignal): Promise<CompactionEvent> {
  const { sessions } = agent;
  const replace = sessions.replace?.bind(sessions);
  if (!replace) throw new Error('this session store cannot compact a session: it has no replace()');
  const run = new RunState(agent.name, sessionId, `compact_${randomUUID()}`);
  return whileClaimed<CompactionEvent>(sessions, sessionId, run.runId, async () => {
    const { messages } = checkHistory(await sessions.load(sessionId), sessionId);
    const history = repairHistory(messages);
    const window = (await contextWindowOf(agent.model, agent.modelSettings)) ?? UNKNOWN_WINDOW;
    // The next run's request, measured as a run measures it before a step: its system prompt and tool schemas count.
    const instructions = await agent.instructions();
    const scope = runScopeOf(agent, run, { prompt: '', sessionId, ephemeral: false, streaming: false }, await agent.tools());
    const system: ChatMessage[] = instructions ? [{ role: 'system', content: instructions }] : [];
    const { estimatedWindow, requestFixed, fixedTokens } = requestSizing(scope, system, false, window);
    const outcome = await firstValueFrom(
      compactMessages$({ messages: history, window: estimatedWindow, fixedTokens, requestFixedTokens: requestFixed, reason: 'manual', summarise: summariser(scope, estimatedWindow) }).pipe(
        withAbortSignal(signal),
        defaultIfEmpty(undefined),
      ),
    );
    // A compaction that changed nothing (no summary could be written, and the session is under its target as it is) only reports why.
    const changed = outcome !== undefined && (outcome.prunedToolResults > 0 || outcome.summarisedMessages > 0);
    if (changed) await replace(sessionId, outcome.messages);
    const tokens = (outcome?.tokensBefore ?? estimateTokens(history)) + requestFixed;
    return {
      type: 'Compaction', runId: run.runId, agentName: agent.name, sessionId, reason: 'manual', contextWindow: window,
      tokensBefore: tokens, tokensAfter: outcome === undefined ? tokens : outcome.tokensAfter + requestFixed,
      prunedToolResults: outcome?.prunedToolResults ?? 0, summarisedMessages: outcome?.summarisedMessages ?? 0,
      ...(outcome?.summaryError === undefined ? {} : { summaryError: outcome.summaryError }), archived: changed,
    };
  });
}
