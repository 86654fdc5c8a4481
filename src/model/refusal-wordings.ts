/**
 * How servers word a refusal of a request longer than the model's context window: the words
 * `contextExceeded` and `refusedPromptTokens` (context-exceeded.ts) read. Most servers but
 * llama.cpp do not announce their window, so a refusal they recognise is the only way the
 * engine learns it: a wording missing here leaves every later turn of a session refused.
 * Each pattern is anchored on words only a context refusal uses (not a `max_tokens` too
 * large, nor a rate limit counting tokens), so another 400 is not taken for one.
 *
 * @module
 */

/**
 * The refusals, each capturing the window (its first group) when the message names it:
 * - OpenAI (`context_length_exceeded`, "This model's maximum context length is N tokens"),
 *   vLLM and OpenRouter (the same words);
 * - SGLang and LiteLLM: "Requested token count exceeds the model's maximum context length of
 *   N tokens", and SGLang (as Together) "The input (M tokens) is longer than the model's
 *   context length (N tokens)";
 * - llama.cpp: "request (M tokens) exceeds the available context size (N tokens)", older
 *   builds without the numbers; in a stream "Context size has been exceeded";
 * - Mistral: "Prompt contains M tokens … too large for model with N maximum context length";
 * - xAI: "This model's maximum prompt length is N but the request contains M tokens";
 * - Anthropic's OpenAI-compatible endpoint: "prompt is too long: M tokens > N maximum";
 * - Gemini's: "The input token count (M) exceeds the maximum number of tokens allowed (N)".
 */
export const WINDOW_PATTERNS: readonly RegExp[] = [
  /maximum context length (?:is|of) (\d+) tokens/i,
  /is longer than the model'?s context length \((\d+) tokens\)/i,
  /exceeds the available context size(?: \((\d+) tokens\))?/i,
  /context size has been exceeded/i,
  /too large for model with (\d+) maximum context length/i,
  /maximum prompt length is (\d+)/i,
  /prompt is too long: \d+ tokens > (\d+) maximum/i,
  /input token count \(\d+\) exceeds the maximum number of tokens allowed \((\d+)\)/i,
  /context_length_exceeded/i,
  /exceed_context_size_error/i,
];

/**
 * How they say the refused prompt's size (its first group; a second one is added to it):
 * llama.cpp "request (M tokens) exceeds", OpenAI "your messages resulted in M tokens", OpenAI
 * and older vLLM "you requested T tokens (M in the messages, A in the completion)" (T counts
 * the answer's room too: M is the prompt), newer vLLM "your request has M input tokens" or
 * "your prompt contains M input tokens" (not "at least M": a bound, not a count), SGLang and
 * LiteLLM "M tokens from the input messages", SGLang and Together "The input (M tokens)",
 * Mistral "Prompt contains M tokens", xAI "the request contains M tokens", Anthropic "prompt is
 * too long: M tokens", Gemini "input token count (M)". OpenAI with tools counts their schemas
 * apart, "(M in the messages, F in the functions, A in the completion)": the prompt is M + F,
 * the same parts the estimate it is set against counts (messages and tools); M alone would
 * make the ratio learned from it too low, and the compaction sized by it too large.
 */
export const PROMPT_PATTERNS: readonly RegExp[] = [
  /request \((\d+) tokens\) exceeds/i,
  /messages resulted in (\d+) tokens/i,
  /\((\d+) in the messages(?:, (?:and )?(\d+) in the functions)?/i,
  /request has (\d+) input tokens/i,
  /prompt contains (\d+) (?:input )?tokens/i,
  /(\d+) tokens from the input messages/i,
  /input \((\d+) tokens\) is longer than/i,
  /request contains (\d+) tokens/i,
  /prompt is too long: (\d+) tokens/i,
  /input token count \((\d+)\)/i,
];
