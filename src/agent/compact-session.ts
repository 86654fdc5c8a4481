import { randomUUID } from 'node:crypto';
import { defaultIfEmpty, firstValueFrom } from 'rxjs';
import type { CompactionEvent } from '../events/agent-event.js';
import { estimateTokens } from '../model/estimate-tokens.js';
import { checkHistory } from '../session/check-history.js';
import { compactMessages$ } from '../session/compaction/compact-messages.js';
import { answerReserve, contextWindowOf } from '../session/compaction/context-windows.js';
import { repairHistory } from '../session/repair-history.js';
import type { AgentScope } from './agent-scope.js';
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
 * compaction); nothing changes for a session with nothing to compact (its counts are 0).
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
    const scope = runScopeOf(agent, run, { prompt: '', sessionId, ephemeral: false, streaming: false }, []);
    const fixedTokens = answerReserve(window, agent.modelSettings?.maxTokens);
    const outcome = await firstValueFrom(
      compactMessages$({ messages: history, window, fixedTokens, reason: 'manual', summarise: summariser(scope, window) }).pipe(
        withAbortSignal(signal),
        defaultIfEmpty(undefined),
      ),
    );
    if (outcome) await replace(sessionId, outcome.messages);
    const tokens = estimateTokens(history);
    return {
      type: 'Compaction', runId: run.runId, agentName: agent.name, sessionId, reason: 'manual', contextWindow: window,
      tokensBefore: outcome?.tokensBefore ?? tokens, tokensAfter: outcome?.tokensAfter ?? tokens,
      prunedToolResults: outcome?.prunedToolResults ?? 0, summarisedMessages: outcome?.summarisedMessages ?? 0,
      ...(outcome?.summaryError === undefined ? {} : { summaryError: outcome.summaryError }), archived: outcome !== undefined,
    };
  });
}
