import { type Observable, last, map, filter } from 'rxjs';
import type { ChatMessage } from '../model/chat-message.js';
import type { ChatRequest, ModelFinish } from '../model/chat-model.js';
import { estimateRequestTokens, estimateTokens } from '../model/estimate-tokens.js';
import { FALLBACK_COMPACTION_PROMPT, SUMMARY_REQUEST } from '../session/compaction/compaction-prompt.js';
import { summaryTranscript } from '../session/compaction/summary-transcript.js';
import type { RunScope } from './run-scope.js';
import { stepTokens } from './step-budget.js';

/** Characters a token may hold at least, to size the transcript safely under the window (the estimate counts four). */
const SAFE_CHARS_PER_TOKEN = 3;

/**
 * The summariser of a run's compaction: one request of the run's model (or the `compaction`
 * agent's), without tools, with the `compaction` agent's prompt and settings, at most
 * `maxTokens` long; the transcript is cut to fit `window`. Its usage counts in the run's
 * metrics, and in its token budget with the step it made room for (`RunState.summaryTokens`:
 * a budget covers every token a run uses). Errors when the model fails or writes nothing.
 */
export function summariser(scope: RunScope, window: number): (head: readonly ChatMessage[], maxTokens: number) => Observable<string> {
  return (head, maxTokens) => {
    const { agent, run } = scope;
    const setup = agent.compaction;
    const prompt = setup?.prompt ?? FALLBACK_COMPACTION_PROMPT;
    const room = window - maxTokens - estimateTokens([{ role: 'system', content: prompt }, { role: 'user', content: SUMMARY_REQUEST }]) - 64;
    const transcript = summaryTranscript(head, Math.max(1_000, room * SAFE_CHARS_PER_TOKEN));
    const own = setup?.settings?.maxTokens;
    const request: ChatRequest = {
      messages: [
        { role: 'system', content: prompt },
        { role: 'user', content: `${SUMMARY_REQUEST}\n\n${transcript}` },
      ],
      settings: { ...(setup?.settings ?? {}), maxTokens: own === undefined ? maxTokens : Math.min(own, maxTokens) },
      sender: { agentName: 'compaction', runId: run.runId, step: run.steps },
      deltas: false,
    };
    return (setup?.model ?? agent.model).stream(request).pipe(
      filter((chunk): chunk is ModelFinish => chunk.type === 'finish'),
      last(),
      map((finish) => {
        run.addUsage(finish.usage);
        run.summaryTokens += stepTokens(estimateRequestTokens(request), finish).tokens;
        const text = finish.text.trim();
        if (text === '') throw new Error(`model "${(setup?.model ?? agent.model).id}" wrote an empty summary`);
        return text;
      }),
    );
  };
}
