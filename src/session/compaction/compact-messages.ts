import { catchError, map, type Observable, of, throwError } from 'rxjs';
import { BudgetSpentError } from '../../model/budget-spent-error.js';
import type { ChatMessage } from '../../model/chat-message.js';
import { CHARS_PER_TOKEN, estimateTokens } from '../../model/estimate-tokens.js';
import { errorMessage } from '../../errors/error-message.js';
import { clipMiddle } from '../../text/clip-middle.js';
import type { CompactionInput, CompactionOutcome } from './compaction-types.js';
import { fitPromptResults } from './prompt-results.js';
import { pruneToolResults } from './prune-tool-results.js';
import { chooseCut, keptTokens, withSummary } from './summary-cut.js';
import { MIN_SUMMARY_TOKENS } from './summary-room.js';

/**
 * What share of the room for the session a compaction aims at: well below the limit, so
 * the next turns fit too and a session is not compacted at every step.
 */
export const TARGET_SHARE = 0.6;

/** Room the summary may take: a third of the target, from 64 to 2,000 tokens. */
function summaryTokens(target: number): number {
  return Math.max(64, Math.min(2_000, Math.floor(target * 0.3)));
}

/**
 * What the turn's prompt (the last user message, at `lastUser`) may take with the background
 * results in front of it: the target less the room for a summary of the turns before it (no
 * more than they take) and the steps of this turn so far.
 */
function promptRoom(messages: readonly ChatMessage[], lastUser: number, target: number): number {
  const earlier = Math.min(summaryTokens(target), estimateTokens(messages.slice(0, Math.max(0, lastUser))));
  return Math.max(0, target - earlier - estimateTokens(messages.slice(lastUser + 1)));
}

/**
 * The summary cut to the `maxTokens` it was asked for (as the estimate counts them), and why
 * when it had to be: a model may ignore its `max_tokens`, and a summary stored longer than
 * planned would leave a session that never fits its target again.
 */
function withinLimit(summary: string, maxTokens: number): { text: string; cutBy?: string } {
  const text = summary.trim();
  const max = maxTokens * CHARS_PER_TOKEN;
  if (text.length <= max) return { text };
  return { text: clipMiddle(text, max), cutBy: `the summary was ${text.length} characters, over the ${max} (${maxTokens} tokens) asked for: its middle was cut` };
}

/**
 * Compacts a session (docs/sessions.md): nothing when it fits (`context-limit` only);
 * else the output of old tool results is pruned, oldest first, keeping the newest, until
 * the session is at its target (60% of the room the window leaves it, half its size after
 * the server refused it); if that is not enough, the oldest turns (or steps of a long turn)
 * are summarised by `input.summarise` and the summary replaces them. A `manual` compaction
 * prunes every result before the last turn and summarises everything before it. A compaction
 * that cannot make the request fit does nothing (but for `manual`): neither pruning nor a
 * summary when the system prompt and tool schemas alone fill the window, or when the part a
 * summary must keep does not fit beside them (pruned as it would be, so no prune fits either);
 * nor a summary that could not make the session smaller (one is asked for at most the tokens
 * the turns it replaces free, and a result no smaller is dropped), so a compaction that is
 * emitted always shrinks the session (but for `manual`). Background results in front of the
 * turn's prompt that leave it over what the newest turn may keep are cut first
 * (`fitPromptResults`, the outcome's `resultsCut`). Emits `undefined` when nothing was done; when a summary fails, the old turns are kept if
 * the pruned session is under the target (never after a refusal), else a note saying so
 * replaces them; a summary longer than asked is cut to its limit (either way
 * the outcome's `summaryError` says why): a compaction itself fails only when its summary was
 * refused for budget before it was sent (a `BudgetSpentError`: the session is left as it is,
 * since the step's own request would be refused too), and a stored summary never outgrows its
 * share of the target.
 */
export function compactMessages$(input: CompactionInput): Observable<CompactionOutcome | undefined> {
  const { messages, reason } = input;
  const before = estimateTokens(messages);
  const room = Math.max(0, input.window - input.fixedTokens);
  if (reason === 'context-limit' && before <= room) return of(undefined);
  const manual = reason === 'manual';
  // The system prompt and tool schemas alone fill the window: pruning and summarising would
  // only eat the conversation, turn after turn, and the request would still not fit.
  if (!manual && input.requestFixedTokens >= input.window) return of(undefined);
  let target = Math.floor(room * TARGET_SHARE);
  if (reason === 'context-exceeded') target = Math.min(target, Math.floor(before / 2));
  const lastUser = messages.findLastIndex((m) => m.role === 'user');
  // Background results in front of the turn's prompt are cut to what a compaction keeps of the
  // newest turn: kept whole with it, results larger than the room had the turn refused (no cut
  // can fall inside a prompt), and only the next turn, summarising it away, could answer.
  const fitted = manual ? undefined : fitPromptResults(messages, promptRoom(messages, lastUser, target), input.prompt);
  const source = fitted?.messages ?? messages;
  const { messages: pruned, pruned: prunedCount } = pruneToolResults(source, manual ? 0 : target, manual ? Math.max(0, lastUser) : source.length);
  const outcome = (result: readonly ChatMessage[], summarised: number, summaryError?: string): CompactionOutcome => ({
    messages: result,
    tokensBefore: before,
    tokensAfter: estimateTokens(result),
    prunedToolResults: prunedCount,
    summarisedMessages: summarised,
    ...(summaryError === undefined ? {} : { summaryError }),
    ...(fitted ? { resultsCut: { before: fitted.before, after: fitted.after } } : {}),
  });
  if (!manual && estimateTokens(pruned) <= target) return of(outcome(pruned, 0));
  const maxSummary = summaryTokens(target);
  const cut = chooseCut(pruned, Math.max(0, target - maxSummary), manual);
  /** The pruned session when pruning (or cutting the results) did something, else nothing: a summary would not help. */
  const prunedOnly = (summaryError?: string): CompactionOutcome | undefined => (prunedCount > 0 || fitted ? outcome(pruned, 0, summaryError) : undefined);
  if (cut === undefined || cut <= 0) return of(prunedOnly());
  // What a summary keeps (at least the newest step, with the results the model has not read
  // yet, never pruned, and the prompt a cut inside the current turn carries) does not fit beside
  // the fixed part: a summary cannot make the request fit, and would replace the turns before it
  // for nothing (a `read` of 50,000 characters under an 8K window). The request goes as it is;
  // the server's refusal says why. Judged against the larger window (see `serverWindow`): the
  // ratio that scales `window` was learned from a whole request, and overstates a kept part that
  // is one long tool result. Nothing is pruned either: the kept part is measured pruned already
  // and is part of the session, so the pruned session cannot fit (a prune that makes it fit was
  // answered above, at the target or with a summary); pruning would only take tool outputs from
  // the model for nothing, turn after turn.
  const fullWindow = Math.max(input.window, input.serverWindow ?? 0);
  if (!manual && input.requestFixedTokens + keptTokens(pruned, cut, false) > fullWindow) return of(undefined);
  // A summary must make the session smaller, or it is paid for (and the request resent) for
  // nothing: none is asked when even an empty one would not (the prompt that a cut inside the
  // current turn carries can take all it frees), and it is asked for no more than the turns it
  // replaces free, unless that is less than the shortest summary worth asking for (a result no
  // smaller is dropped).
  const pruneSize = estimateTokens(pruned);
  const kept = keptTokens(pruned, cut, true);
  if (!manual && kept >= pruneSize) return of(prunedOnly());
  const asked = manual ? maxSummary : Math.min(maxSummary, Math.max(MIN_SUMMARY_TOKENS, pruneSize - kept - 1));
  /** The session with `summary` in place of the turns before the cut; for a compaction that must help, only when smaller. */
  const replaced = (summary: string, summaryError?: string): CompactionOutcome | undefined => {
    const result = withSummary(pruned, cut, summary);
    return !manual && estimateTokens(result) >= pruneSize ? prunedOnly(summaryError) : outcome(result, cut, summaryError);
  };
  return input.summarise(pruned.slice(0, cut), asked).pipe(
    map((summary) => {
      const { text, cutBy } = withinLimit(summary.text, asked);
      // Both when both: a summary stopped by the server (or its stream limit) may still be longer than asked, and its middle cut.
      return replaced(text, [summary.stopped, cutBy].filter((why) => why !== undefined).join('; ') || undefined);
    }),
    catchError((error: unknown) => {
      // Refused for budget before it was sent: the step's own request will be refused the same
      // way, so nothing is gained by changing the session. It stays as it is (the next turn, on
      // a fresh budget, has it all) and the refusal ends the step.
      if (error instanceof BudgetSpentError) return throwError(() => error);
      const why = errorMessage(error);
      // No summary: the old turns stay only when the pruned session is under the target, so
      // the next compaction (and summary request) comes only after real growth; kept just under
      // the room, they would cross it again at the next turns. Never after a refusal: the server
      // has just shown the room (our estimate of it) wrong. An automatic compaction gets here
      // only over its target (a prune that reached it was answered above), so in effect this is
      // `manual`'s case: a session already small asked to compact is left as it is.
      if (reason !== 'context-exceeded' && estimateTokens(pruned) <= target) {
        return of(outcome(pruned, 0, `${why} (the earlier messages were kept: they fit the context window without a summary)`));
      }
      return of(replaced(`(No summary could be written: ${why}. The earlier messages are in the archived transcript.)`, why));
    }),
  );
}
