import type { ChatModel } from '../../model/chat-model.js';
import type { ModelSettings } from '../../model/model-settings.js';
import type { MaybePromise } from '../session-store.js';
import { TARGET_SHARE } from './compact-messages.js';

/** What refusals taught about a model's window, in the server's tokens. */
interface Learned {
  /** The window to fit: the smallest a refusal named (or implied), raised by prompts the server then took. */
  readonly window: number;
  /** The smallest request refused as too long: a window is never raised to more than it. */
  readonly refused: number;
}

/** Windows learned from context-exceeded errors, per model object (forgotten with it). */
const learned = new WeakMap<ChatModel, Learned>();

/**
 * Remembers that `model`'s window is at most `tokens` (a server's context-exceeded error
 * named it, or a request of that estimate did not fit): the smaller of it and what was
 * learned before counts from now on. `refused`: the size of the refused request, in the
 * server's tokens (default `tokens`), the most a window taken from later prompts may reach.
 */
export function learnContextWindow(model: ChatModel, tokens: number, refused = tokens): void {
  if (!Number.isFinite(tokens) || tokens <= 0) return;
  const size = Number.isFinite(refused) && refused > 0 ? refused : tokens;
  const known = learned.get(model);
  learned.set(model, {
    window: Math.floor(known === undefined ? tokens : Math.min(known.window, tokens)),
    refused: Math.floor(known === undefined ? size : Math.min(known.refused, size)),
  });
}

/**
 * Notes that `model`'s server took a prompt of `tokens` (its usage's `promptTokens`), which
 * proves its window holds at least that many. A window learned smaller is raised to it, with
 * the room a compaction leaves a conversation to grow in (the prompt is then at
 * `TARGET_SHARE` of the window), but never past the smallest request the server refused: the
 * next growth is compacted before it is sent instead of costing another refusal.
 *
 * A refusal the server contradicts outright is forgotten instead: when it took a prompt as
 * long as one it refused, or more than twice the window the refusal named (a lie, or a server
 * since restarted larger, rather than a miscount near the limit). Raised, such a window
 * would leave every later request compacted to nearly nothing. A window that really is that
 * small is learned again from the next refusal. (A window the model says, its setting or
 * `/props`, is left as it is: a setting may be smaller than the server's on purpose.)
 */
export function noteServedTokens(model: ChatModel, tokens: number): void {
  const known = learned.get(model);
  if (known === undefined || !Number.isFinite(tokens) || tokens <= known.window) return;
  if (tokens >= known.refused || tokens > 2 * known.window) {
    learned.delete(model);
    return;
  }
  const roomy = Math.min(tokens / TARGET_SHARE, known.refused);
  learned.set(model, { window: Math.floor(Math.max(tokens, roomy)), refused: known.refused });
}

/**
 * The context window a request of this agent must fit: the agent's own `contextWindow`
 * setting; else the smaller of what the model says (its setting, or its server's `/props`)
 * and what a context-exceeded error taught (raised, or forgotten, once the server has taken
 * a longer prompt: {@link noteServedTokens}); `undefined` when nothing says.
 */
export function contextWindowOf(model: ChatModel, settings: ModelSettings | undefined): MaybePromise<number | undefined> {
  if (settings?.contextWindow !== undefined) return settings.contextWindow;
  const said = model.contextWindow?.();
  return said instanceof Promise ? said.then((value) => withLearned(model, value), () => withLearned(model, undefined)) : withLearned(model, said);
}

/** The smaller of what the model said and what an error taught. */
function withLearned(model: ChatModel, said: number | undefined): number | undefined {
  const taught = learned.get(model)?.window;
  if (said === undefined) return taught;
  return taught === undefined ? said : Math.min(said, taught);
}

/** How many of the server's tokens one estimated token was in the model's last request. */
const ratios = new WeakMap<ChatModel, number>();

/**
 * Notes how the server counted a request the run had estimated (its usage's `promptTokens`
 * against `estimateRequestTokens`): templates add tokens per message and tokenizers differ
 * from four characters a token, so compaction scales its estimates by the last ratio seen
 * (from 0.5 to 4).
 */
export function noteTokenRatio(model: ChatModel, estimated: number, counted: number | undefined): void {
  if (counted === undefined || counted <= 0 || estimated <= 0) return;
  ratios.set(model, Math.min(4, Math.max(0.5, counted / estimated)));
}

/** The server's tokens per estimated token for this model: the last seen, 1 before any. */
export function tokenRatio(model: ChatModel): number {
  return ratios.get(model) ?? 1;
}

/**
 * Room kept for the answer in a request: the agent's `maxTokens` when set, else a fifth of
 * the window (at most 4,096 tokens).
 */
export function answerReserve(window: number, maxTokens: number | undefined): number {
  return maxTokens ?? Math.min(4096, Math.floor(window / 5));
}
