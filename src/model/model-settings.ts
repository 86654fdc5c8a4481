/**
 * Sampling and tool settings of a model request, in the library's spelling (camelCase; the
 * wire names are `temperature`, `top_p`, `max_tokens`, `tool_choice`, `parallel_tool_calls`).
 * Every field is optional: what is not set is left to the server.
 */
export interface ModelSettings {
  /** Sampling temperature, 0 to 2. */
  readonly temperature?: number;
  /** Nucleus sampling, 0 to 1. */
  readonly topP?: number;
  /** The most tokens the reply may have (a reply cut there ends `finish_reason: length`). */
  readonly maxTokens?: number;
  /**
   * Whether the model must call a tool (`required`), may (`auto`), must not (`none`), or must
   * call the named one. Sent only with a request that offers tools (the last step of a run
   * offers none), since servers reject a `tool_choice` without `tools`.
   */
  readonly toolChoice?: 'auto' | 'required' | 'none' | NamedToolChoice;
  /** Whether the model may ask for several tool calls in one reply; sent only with tools. */
  readonly parallelToolCalls?: boolean;
  /**
   * The model's context window in tokens (prompt and answer together). Never sent: the run
   * compacts a session before a request that would not fit it (docs/sessions.md). Absent:
   * asked of the server (llama.cpp's `/props`), or learned from a context-exceeded error.
   */
  readonly contextWindow?: number;
}

/** A `toolChoice` that forces one tool. */
export interface NamedToolChoice {
  /** The tool the model must call. */
  readonly name: string;
}

const KEYS: ReadonlySet<string> = new Set(['temperature', 'topP', 'maxTokens', 'toolChoice', 'parallelToolCalls', 'contextWindow']);

/**
 * Checks settings from code or a definition file, and throws a `TypeError` naming the field
 * and what it takes. Returns the settings as given.
 *
 * @example
 * ```ts
 * checkModelSettings({ temperature: 0.2, maxTokens: 800 }, 'OpenAIChatModel settings');
 * ```
 */
export function checkModelSettings(value: unknown, where: string): ModelSettings {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new TypeError(`${where}: settings must be an object`);
  const s = value as Record<string, unknown>;
  const unknown = Object.keys(s).filter((k) => !KEYS.has(k));
  if (unknown.length) throw new TypeError(`${where}: unknown setting ${unknown.map((k) => `"${k}"`).join(', ')}; known: ${[...KEYS].join(', ')}`);
  range(s.temperature, 0, 2, `${where}: temperature`);
  range(s.topP, 0, 1, `${where}: topP`);
  if (s.maxTokens !== undefined && (!Number.isInteger(s.maxTokens) || (s.maxTokens as number) < 1)) {
    throw new TypeError(`${where}: maxTokens must be a whole number of at least 1, got ${shown(s.maxTokens)}`);
  }
  if (s.contextWindow !== undefined && (!Number.isInteger(s.contextWindow) || (s.contextWindow as number) < 256)) {
    throw new TypeError(`${where}: contextWindow must be a whole number of tokens, at least 256, got ${shown(s.contextWindow)}`);
  }
  const choice = s.toolChoice;
  const named = typeof choice === 'object' && choice !== null && typeof (choice as { name?: unknown }).name === 'string';
  if (choice !== undefined && choice !== 'auto' && choice !== 'required' && choice !== 'none' && !named) {
    throw new TypeError(`${where}: toolChoice must be "auto", "required", "none" or { name }, got ${JSON.stringify(choice)}`);
  }
  if (s.parallelToolCalls !== undefined && typeof s.parallelToolCalls !== 'boolean') {
    throw new TypeError(`${where}: parallelToolCalls must be true or false, got ${JSON.stringify(s.parallelToolCalls)}`);
  }
  return s as ModelSettings;
}

function range(value: unknown, min: number, max: number, name: string): void {
  if (value === undefined) return;
  if (typeof value !== 'number' || !Number.isFinite(value) || value < min || value > max) {
    throw new TypeError(`${name} must be a number from ${min} to ${max}, got ${shown(value)}`);
  }
}

// A number as itself: JSON.stringify writes NaN and Infinity as `null`, which no one wrote.
function shown(value: unknown): string {
  return typeof value === 'number' ? String(value) : JSON.stringify(value);
}

/**
 * The request body fields of `settings` for a request that does (or does not) offer tools;
 * tool settings are left out without tools.
 *
 * @example
 * ```ts
 * settingsBody({ maxTokens: 300, toolChoice: 'required' }, true); // { max_tokens: 300, tool_choice: 'required' }
 * ```
 */
export function settingsBody(settings: ModelSettings, withTools: boolean): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  if (settings.temperature !== undefined) body.temperature = settings.temperature;
  if (settings.topP !== undefined) body.top_p = settings.topP;
  if (settings.maxTokens !== undefined) body.max_tokens = settings.maxTokens;
  if (withTools) {
    const choice = settings.toolChoice;
    if (choice !== undefined) body.tool_choice = typeof choice === 'string' ? choice : { type: 'function', function: { name: choice.name } };
    if (settings.parallelToolCalls !== undefined) body.parallel_tool_calls = settings.parallelToolCalls;
  }
  return body;
}
