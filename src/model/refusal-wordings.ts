/**
 * How servers word a refusal of a request longer than the model's context window: the words
 * `contextExceeded`, `refusedPromptTokens` and `refusedExcessTokens` (context-exceeded.ts)
 * read. Most servers but llama.cpp do not announce their window, so a refusal they recognise is
 * the only way the engine learns it: a wording missing here leaves every later turn of a session
 * refused.
 * Each pattern is anchored on words only a context refusal uses (not a `max_tokens` too
 * large, nor a rate limit counting tokens), so another 400 is not taken for one.
 *
 * @module
 */

/** A count, with or without thousands separators ("131072", "131,072"), captured. */
const N = String.raw`(\d{1,3}(?:,\d{3})+|\d+)`;
/** The same, not captured: a count that is neither the window nor the prompt's. */
const X = String.raw`(?:\d{1,3}(?:,\d{3})+|\d+)`;
/** A pattern of words, case aside. */
const words = (source: string): RegExp => new RegExp(source, 'i');

/**
 * The refusals, each capturing the window (its first group) when the message names it:
 * - OpenAI (`context_length_exceeded`, "This model's maximum context length is N tokens"),
 *   DeepSeek, vLLM and OpenRouter (the same words); vLLM also "Input length (M) exceeds model's
 *   maximum context length (N)" and "The decoder prompt (length M) is longer than the maximum
 *   model length of N"; Ollama's MLX engine "input length (M tokens) exceeds the model's maximum
 *   context length (N tokens)";
 * - SGLang and LiteLLM: "Requested token count exceeds the model's maximum context length of
 *   N tokens", and SGLang (as Together) "The input (M tokens) is longer than the model's
 *   context length (N tokens)", or "Input length (M tokens) exceeds the maximum allowed
 *   length (N tokens)";
 * - llama.cpp: "request (M tokens) exceeds the available context size (N tokens)", older
 *   builds without the numbers; in a stream "Context size has been exceeded"; forks "Prompt has
 *   M tokens, but the configured context size is N tokens";
 * - TGI: "`inputs` tokens + `max_new_tokens` must be <= N. Given: M `inputs` tokens and …",
 *   "`inputs` must have less than N tokens. Given: M";
 * - Mistral: "Prompt contains M tokens … too large for model with N maximum context length";
 * - xAI: "This model's maximum prompt length is N but the request contains M tokens";
 * - Anthropic's OpenAI-compatible endpoint: "prompt is too long: M tokens > N maximum"; its own
 *   API "input length and `max_tokens` exceed context limit: M + A > N";
 * - Gemini's: "The input token count (M) exceeds the maximum number of tokens allowed (N)";
 * - Poolside (OpenRouter): "Input length M exceeds the maximum allowed input length of N
 *   tokens"; others "Requested input length M exceeds maximum input length N";
 * - Kimi (Moonshot): "Your request exceeded model token limit: N (requested: T)"; Moonshot's
 *   older "model max length exceeded, max length:N";
 * - mlx-serve: "Prompt exceeds maximum context length: M tokens requested, N available"; older
 *   builds the same words without the counts (quoted so in mlx-serve's
 *   tests/bench_prefill_sweep.sh, of its memory preflight's refusal);
 * - LM Studio (its llama.cpp engine): "The number of tokens to keep from the initial prompt is
 *   greater than the context length", bare (opencode issue 2259, lmstudio-bug-tracker issue
 *   2205) or with "(n_keep: M >= n_ctx: N)" (Gitlawb/openclaude issue 353); "Cannot truncate
 *   prompt with n_keep (M) >= n_ctx (N)" (opencode issue 11141, continuedev/continue issue
 *   11279); older builds "Trying to keep the first M tokens when context the overflows. However,
 *   the model is loaded with context length of only N tokens" (lmstudio-bug-tracker issues 237
 *   and 546). Only those words, not "greater than the context length" alone: a `max_tokens`
 *   larger than the window could be said so too;
 * - Qwen (DashScope): "Range of input length should be [1, N]";
 * - without the window: the bare mlx-serve and LM Studio words above; Ollama "prompt too long;
 *   exceeded max context length by K tokens" (K is the excess: no window, no prompt;
 *   EXCESS_PATTERNS reads it), "the input length exceeds the context length", "the prompt is
 *   longer than the context length currently available to the model"; MiniMax "context window
 *   exceeds limit"; Kimi Code "total message size M exceeds limit N" (M and N count the
 *   conversation's characters, not tokens: no window).
 */
export const WINDOW_PATTERNS: readonly RegExp[] = [
  words(String.raw`maximum context length (?:is|of) ${N} tokens`),
  words(String.raw`maximum context length \(${N}(?: tokens)?\)`),
  words(String.raw`is longer than the maximum model length of ${N}`),
  words(String.raw`is longer than the model'?s context length \(${N} tokens\)`),
  words(String.raw`exceeds the maximum allowed length \(${N} tokens\)`),
  words(String.raw`exceeds the available context size(?: \(${N} tokens\))?`),
  /context size has been exceeded/i,
  words(String.raw`configured context size is ${N} tokens`),
  words(String.raw`\binputs\W* tokens \+ \W*max_new_tokens\W* must be <= ${N}`),
  words(String.raw`\binputs\W* must have less than ${N} tokens`),
  words(String.raw`too large for model with ${N} maximum context length`),
  words(String.raw`maximum prompt length is ${N}`),
  words(String.raw`prompt is too long: ${X} tokens > ${N} maximum`),
  words(String.raw`exceed context limit: ${X} \+ ${X} > ${N}`),
  words(String.raw`input token count \(${X}\) exceeds the maximum number of tokens allowed \(${N}\)`),
  words(String.raw`exceeds (?:the )?maximum (?:allowed )?input length (?:of )?${N}`),
  words(String.raw`exceeded model token limit: ${N}`),
  words(String.raw`model max length exceeded, max length: ?${N}`),
  words(String.raw`exceeds maximum context length: ${X} tokens requested, ${N} available`),
  words(String.raw`range of input length should be \[1, ?${N}\]`),
  words(String.raw`n_keep:? ?\(?${X}\)? ?>= ?n_ctx:? ?\(?${N}\)?`),
  words(String.raw`model is loaded with context length of only ${N} tokens`),
  /prompt exceeds maximum context length/i,
  /tokens to keep from the initial prompt is greater than the context length/i,
  /cannot truncate prompt with n_keep/i,
  /prompt too long; exceeded (?:max )?context length/i,
  /input length exceeds the context length/i,
  /prompt is longer than the context length currently available/i,
  words(String.raw`total message size ${X} exceeds limit ${X}`),
  /context window exceeds limit/i,
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
 * too long: M tokens" and "exceed context limit: M +", Gemini "input token count (M)", vLLM and
 * SGLang "Input length (M) exceeds" or "(M tokens)", Poolside "Input length M exceeds", vLLM
 * "decoder prompt (length M)", TGI "Given: M `inputs` tokens" or "less than N tokens. Given: M",
 * llama.cpp forks "Prompt has M tokens", mlx-serve "context length: M tokens requested", LM
 * Studio "n_keep: M >=" or "n_keep (M) >=" and "keep the first M tokens" (the tokens it would
 * keep are the whole prompt: it refuses to cut any). (Kimi's "requested: T" is not read: it may
 * count the answer's room too.)
 * OpenAI with tools counts their schemas apart, "(M in the messages, F in the functions, A in
 * the completion)": the prompt is M + F, the same parts the estimate it is set against counts
 * (messages and tools); M alone would make the ratio learned from it too low, and the
 * compaction sized by it too large.
 */
export const PROMPT_PATTERNS: readonly RegExp[] = [
  words(String.raw`request \(${N} tokens\) exceeds`),
  words(String.raw`messages resulted in ${N} tokens`),
  words(String.raw`\(${N} in the messages(?:, (?:and )?${N} in the functions)?`),
  words(String.raw`request has ${N} input tokens`),
  words(String.raw`prompt contains ${N} (?:input )?tokens`),
  words(String.raw`\b${N} tokens from the input messages`),
  words(String.raw`input \(${N} tokens\) is longer than`),
  words(String.raw`request contains ${N} tokens`),
  words(String.raw`prompt is too long: ${N} tokens`),
  words(String.raw`exceed context limit: ${N} \+`),
  words(String.raw`input token count \(${N}\)`),
  words(String.raw`input length \(?${N}(?: tokens)?\)? exceeds`),
  words(String.raw`decoder prompt \(length ${N}\)`),
  words(String.raw`given: ${N} \W*inputs\W* tokens`),
  words(String.raw`must have less than ${X} tokens\. given: ${N}`),
  words(String.raw`prompt has ${N} tokens`),
  words(String.raw`exceeds maximum context length: ${N} tokens requested`),
  words(String.raw`n_keep:? ?\(?${N}\)? ?>= ?n_ctx`),
  words(String.raw`trying to keep the first ${N} tokens`),
];

/**
 * How they say by how many tokens the refused prompt was over the window (its first group):
 * Ollama (Ollama Cloud among them) "prompt too long; exceeded max context length by K tokens",
 * its only count (no window, no prompt). The window is then the refused prompt less K, in the
 * server's count: a tenth less than the prompt, the guess for a refusal naming nothing, is too
 * little past a large window (kimi-k2.6:cloud refused a prompt 65,590 tokens over its 262,144).
 */
export const EXCESS_PATTERNS: readonly RegExp[] = [
  words(String.raw`prompt too long; exceeded (?:max )?context length by ${N} tokens`),
];
