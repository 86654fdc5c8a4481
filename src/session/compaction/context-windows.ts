import type { ChatModel } from '../../model/chat-model.js';
import type { ModelSettings } from '../../model/model-settings.js';
import type { MaybePromise } from '../session-store.js';

/** Windows learned from context-exceeded errors, per model object (forgotten with it). */
const learned = new WeakMap<ChatModel, number>();

/**
 * Remembers that `model`'s window is at most `tokens` (a server's context-exceeded error
 * named it, or a request of that estimate did not fit): the smaller of it and what was
 * learned before counts from now on.
 */
export function learnContextWindow(model: ChatModel, tokens: number): void {
  if (!Number.isFinite(tokens) || tokens <= 0) return;
  const known = learned.get(model);
  learned.set(model, Math.floor(known === undefined ? tokens : Math.min(known, tokens)));
}

/**
 * The window a refusal naming none teaches, in the server's tokens, for a refused prompt of
 * `refused` of them: a tenth less than it; and when the refusal says by how many tokens the
 * prompt was over (`excess`, Ollama's words), no more than the prompt less that excess, the
 * window as the server counts it. A tenth alone is too little past a large window: a prompt
 * 65,590 tokens over a 262,144 window taught 294,960, still over it: a later turn grown
 * between the two was not compacted before it was sent, and was refused again (and with an
 * excess past about half the prompt, so was the refused turn's resend, and the turn failed:
 * the resend is at most half the session). The compaction then keeps the answer's room
 * (`answerReserve`, 4,096 tokens past a 20K window) below the window learned: the prompt sent
 * next is at most `refused - excess -` that room, and the room is the margin for a `refused`
 * that is only an estimate (our count scaled by the ratio the last usage taught), off the
 * server's count by less than it. An excess as large as `refused` says that estimate is far too
 * low, and the excess tells nothing of the window in its units: the tenth is kept then.
 *
 * @example
 * ```ts
 * windowAfterRefusal(327_734, 65_590); // 262_144
 * windowAfterRefusal(10_000, undefined); // 9_000
 * ```
 */
export function windowAfterRefusal(refused: number, excess: number | undefined): number {
  const tenthLess = Math.floor(refused * 0.9);
  if (excess === undefined || excess >= refused) return tenthLess;
  return Math.min(tenthLess, Math.floor(refused - excess));
}

/**
 * Notes that `model`'s server took a prompt of `tokens` (its usage's `promptTokens`). A
 * window learned smaller is forgotten: the refusal that taught it (a lie, a miscount, a
 * server since restarted larger) is contradicted, and kept, it would have every later request
 * of the model compacted to nearly nothing. A window that really is that small is learned
 * again from the next refusal. (A window the model says, its setting or `/props`, is left as
 * it is: a setting may be smaller than the server's on purpose.)
 */
export function noteServedTokens(model: ChatModel, tokens: number): void {
  const known = learned.get(model);
  if (known !== undefined && Number.isFinite(tokens) && tokens > known) learned.delete(model);
}

/**
 * The context window a request of this agent must fit: the agent's own `contextWindow`
 * setting; else the smaller of what the model says (its setting, or its server's `/props`)
 * and what a context-exceeded error taught (unless the server has taken a longer prompt
 * since: {@link noteServedTokens}); `undefined` when nothing says.
 */
export function contextWindowOf(model: ChatModel, settings: ModelSettings | undefined): MaybePromise<number | undefined> {
  if (settings?.contextWindow !== undefined) return settings.contextWindow;
  const said = model.contextWindow?.();
  return said instanceof Promise ? said.then((value) => withLearned(model, value), () => withLearned(model, undefined)) : withLearned(model, said);
}

/** The smaller of what the model said and what an error taught. */
function withLearned(model: ChatModel, said: number | undefined): number | undefined {
  const taught = learned.get(model);
  if (said === undefined) return taught;
  return taught === undefined ? said : Math.min(said, taught);
}

/** How many of the server's tokens one estimated token was in the model's last request. */
const ratios = new WeakMap<ChatModel, number>();

/**
 * Notes how the server counted a request the run had estimated (its usage's `promptTokens`, or
 * the count its refusal as too long named: `refusedPromptTokens`, against
 * `estimateRequestTokens`): templates add tokens per message and tokenizers differ
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
 * the window (at most 4,096 tokens); and no more than half of `left`, what the system prompt
 * and tool schemas leave of the window, when it is given. A reserve that takes (nearly) all
 * of that (a `maxTokens` as large as the window, a small window under many tools) would leave
 * the conversation no room, and every turn would summarise all that came before it.
 *
 * @example
 * ```ts
 * answerReserve(32_768, undefined); // 4_096
 * answerReserve(8_192, 8_192, 8_000); // 4_000: the conversation keeps the other half
 * ```
 */
export function answerReserve(window: number, maxTokens: number | undefined, left?: number): number {
  const wanted = maxTokens ?? Math.min(4096, Math.floor(window / 5));
  return left === undefined ? wanted : Math.min(wanted, Math.max(0, Math.floor(left / 2)));
}
