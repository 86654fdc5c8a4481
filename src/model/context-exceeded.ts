import { APIError } from 'openai';
import { EXCESS_PATTERNS, PROMPT_PATTERNS, WINDOW_PATTERNS } from './refusal-wordings.js';

/** What a context-exceeded error said: the window it named, when it named one. */
export interface ContextExceeded {
  /** The model's context window in tokens, as the server's message named it. */
  readonly window?: number;
}

/**
 * Whether `error` (a model request's failure, or anything in its `cause` chain) says the
 * request did not fit the model's context window; `undefined` when it says something else.
 * The servers' words it knows: refusal-wordings.ts.
 *
 * @example
 * ```ts
 * contextExceeded(new Error('request (1662 tokens) exceeds the available context size (1024 tokens)')); // { window: 1024 }
 * ```
 */
export function contextExceeded(error: unknown): ContextExceeded | undefined {
  let found = false;
  for (const current of causes(error)) {
    const text = current instanceof Error ? current.message : String(current);
    const code = current instanceof APIError ? String(current.code ?? '') : '';
    for (const pattern of WINDOW_PATTERNS) {
      const match = pattern.exec(text) ?? pattern.exec(code);
      if (!match) continue;
      found = true;
      const window = positive(match[1]);
      if (window !== undefined) return { window };
    }
  }
  return found ? {} : undefined;
}

/**
 * The tokens the server counted in the prompt of a request it refused as too long (without
 * the room asked for the answer), when its error says (its words, or llama.cpp's
 * `n_prompt_tokens`); `undefined` when it does not, or when `error` is no such refusal. Against
 * the refused request's estimate, it says how much higher (or lower) than our estimate the
 * server counts, before any response has said so with its usage. `exceeded`: what
 * `contextExceeded(error)` said, when the caller already asked (the refusal is not read twice).
 *
 * @example
 * ```ts
 * refusedPromptTokens(new Error('request (1662 tokens) exceeds the available context size (1024 tokens)')); // 1662
 * ```
 */
export function refusedPromptTokens(
  error: unknown,
  exceeded: ContextExceeded | undefined = contextExceeded(error),
): number | undefined {
  if (!exceeded) return undefined;
  return countInCauses(error, (text, current) => {
    for (const pattern of PROMPT_PATTERNS) {
      const match = pattern.exec(text);
      const said = positive(match?.[1]);
      if (said !== undefined) return said + (positive(match?.[2]) ?? 0);
    }
    const body = current instanceof APIError ? (current.error as { n_prompt_tokens?: unknown } | undefined) : undefined;
    return typeof body?.n_prompt_tokens === 'number' ? positive(body.n_prompt_tokens) : undefined;
  });
}

/**
 * By how many tokens the prompt of a request refused as too long was over the window, when its
 * error says so (Ollama's "exceeded max context length by K tokens", which names neither the
 * window nor the prompt); `undefined` when it does not, or when `error` is no such refusal.
 * The window is the refused prompt less this, both in the server's count. `exceeded`: what
 * `contextExceeded(error)` said, when the caller already asked.
 *
 * @example
 * ```ts
 * refusedExcessTokens(new Error('prompt too long; exceeded max context length by 65590 tokens')); // 65590
 * ```
 */
export function refusedExcessTokens(
  error: unknown,
  exceeded: ContextExceeded | undefined = contextExceeded(error),
): number | undefined {
  if (!exceeded) return undefined;
  return countInCauses(error, (text) => {
    for (const pattern of EXCESS_PATTERNS) {
      const said = positive(pattern.exec(text)?.[1]);
      if (said !== undefined) return said;
    }
    return undefined;
  });
}

/** The first count `read` finds in the words of `error` or of one of its causes, outermost first. */
function countInCauses(error: unknown, read: (text: string, current: unknown) => number | undefined): number | undefined {
  for (const current of causes(error)) {
    const said = read(current instanceof Error ? current.message : String(current), current);
    if (said !== undefined) return said;
  }
  return undefined;
}

/** `error` and its causes, outermost first (five at most). */
function* causes(error: unknown): Generator<unknown> {
  let current: unknown = error;
  for (let depth = 0; current !== undefined && current !== null && depth < 5; depth++) {
    yield current;
    current = current instanceof Error ? current.cause : undefined;
  }
}

/** A count of tokens read from a server's words ("131,072" too): a positive whole number, else nothing. */
function positive(said: string | number | undefined): number | undefined {
  const value = Number(typeof said === 'string' ? said.replace(/,/g, '') : said);
  return said !== undefined && Number.isSafeInteger(value) && value > 0 ? value : undefined;
}
