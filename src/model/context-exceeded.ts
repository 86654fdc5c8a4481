import { APIError } from 'openai';

/** What a context-exceeded error said: the window it named, when it named one. */
export interface ContextExceeded {
  /** The model's context window in tokens, as the server's message named it. */
  readonly window?: number;
}

/**
 * How servers say a request is longer than the model's context window, each with the window
 * when the message names it: OpenAI (`context_length_exceeded`, "maximum context length is
 * N tokens"), vLLM (the same words), llama.cpp ("request (M tokens) exceeds the available
 * context size (N tokens)", older builds without the numbers; in a stream "Context size has
 * been exceeded").
 */
const PATTERNS: readonly RegExp[] = [
  /maximum context length is (\d+) tokens/i,
  /exceeds the available context size(?: \((\d+) tokens\))?/i,
  /context size has been exceeded/i,
  /context_length_exceeded/i,
  /exceed_context_size_error/i,
];

/**
 * Whether `error` (a model request's failure, or anything in its `cause` chain) says the
 * request did not fit the model's context window; `undefined` when it says something else.
 *
 * @example
 * ```ts
 * contextExceeded(new Error('request (1662 tokens) exceeds the available context size (1024 tokens)')); // { window: 1024 }
 * ```
 */
export function contextExceeded(error: unknown): ContextExceeded | undefined {
  let found = false;
  let current: unknown = error;
  for (let depth = 0; current !== undefined && current !== null && depth < 5; depth++) {
    const text = current instanceof Error ? current.message : String(current);
    const code = current instanceof APIError ? String(current.code ?? '') : '';
    for (const pattern of PATTERNS) {
      const match = pattern.exec(text) ?? pattern.exec(code);
      if (!match) continue;
      found = true;
      const window = match[1] === undefined ? undefined : Number(match[1]);
      if (window !== undefined && window > 0) return { window };
    }
    current = current instanceof Error ? current.cause : undefined;
  }
  return found ? {} : undefined;
}
