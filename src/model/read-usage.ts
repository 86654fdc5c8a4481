import type { TokenUsage } from './chat-model.js';

/** Usage as the wire spells it; any field may be missing, `null` or not a number on odd servers. */
export interface WireUsage {
  readonly prompt_tokens?: unknown;
  readonly completion_tokens?: unknown;
  readonly total_tokens?: unknown;
}

/**
 * Reads a server's usage, computing what it left out, so metrics never become `NaN`: a
 * missing completion (or prompt) count is the total less the other; a missing total is the
 * sum; what cannot be computed counts 0; a count over `Number.MAX_SAFE_INTEGER` counts that.
 * A usage without a single usable count is `undefined` (no usage reported).
 *
 * @example
 * ```ts
 * readUsage({ prompt_tokens: 10, total_tokens: 15 }); // { promptTokens: 10, completionTokens: 5, totalTokens: 15 }
 * ```
 */
export function readUsage(usage: WireUsage): TokenUsage | undefined {
  let prompt = count(usage.prompt_tokens);
  let completion = count(usage.completion_tokens);
  const total = count(usage.total_tokens);
  if (prompt === undefined && completion === undefined && total === undefined) return undefined;
  if (total !== undefined && prompt !== undefined && completion === undefined) completion = Math.max(0, total - prompt);
  if (total !== undefined && completion !== undefined && prompt === undefined) prompt = Math.max(0, total - completion);
  prompt ??= 0;
  completion ??= 0;
  return { promptTokens: prompt, completionTokens: completion, totalTokens: total ?? prompt + completion };
}

/**
 * A usable count, at most `Number.MAX_SAFE_INTEGER`: a server that claims more (`1e308`) still
 * spends any budget at once, but the sums of such counts (a run's metrics, a tree's budget)
 * stay finite rather than overflow to `Infinity`, which JSON would send as `null`.
 */
function count(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0 ? Math.min(value, Number.MAX_SAFE_INTEGER) : undefined;
}
