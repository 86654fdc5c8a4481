/**
 * What each chat template needs to be driven by a random-weight model, found by probing the
 * real server (docs/models.md tells the story). The model writes nonsense and never stops
 * on its own, so the checks steer it with `logit_bias` (sent through `extraBody`):
 *
 * - token 2 (`</s>`, end of sequence) makes it end a reply by itself (`finish_reason: stop`);
 * - a forced tool call needs the server's grammar to start; which templates let it start is
 *   in `forcing`.
 *
 * @module
 */
import type { ChatMessage } from '../../src/model/chat-message.js';

/** The end-of-sequence token of the tiny llama-2 vocabulary. */
export const EOS = '2';

/** How a template's tool calls can be forced with `tool_choice: "required"`, or why they cannot. */
export type Forcing =
  | {
      /**
       * `logit_bias` that makes the model call `tool`; `firstToken` is the id of the first
       * token of the tool's name (ask the server's `/tokenize`).
       */
      readonly bias: (firstToken: number) => Record<string, number>;
    }
  | { readonly impossible: string };

/** One chat template and how the random model behaves under it. */
export interface TemplateProfile {
  /** A short name for test titles. */
  readonly label: string;
  /** The file in `templates/`. */
  readonly file: string;
  /** `logit_bias` that makes a plain reply end by itself (`finish_reason: stop`) after a few tokens, or at once. */
  readonly stopBias: Readonly<Record<string, number>>;
  /** Every reply starts in reasoning, streamed as `reasoning_content` (the template opens a `<think>` block). */
  readonly thinking: boolean;
  /** Forced tool calls. */
  readonly forcing: Forcing;
  /**
   * What a plain reply cut by `max_tokens` comes back as: `length` (a `finish_reason`), or
   * the server's own error, because its output parser rejects any text the model writes.
   */
  readonly cutReply: 'length' | { readonly serverError: RegExp; readonly why: string };
  /** A stored conversation the template refuses: the HTTP status and error the server answers, and why. */
  readonly refuses?: { readonly stored: readonly ChatMessage[]; readonly status: number; readonly error: RegExp; readonly why: string };
}

/** A stored turn with a tool call whose id is `id`. */
function toolTurn(id: string): ChatMessage[] {
  return [
    { role: 'user', content: 'Which files are there?' },
    { role: 'assistant', content: null, tool_calls: [{ id, type: 'function', function: { name: 'list', arguments: '{}' } }] },
    { role: 'tool', tool_call_id: id, content: 'notes.txt' },
    { role: 'assistant', content: 'There is notes.txt.' },
  ];
}

/** The `<tool_call>` / `[TOOL_CALLS]` trigger words are several tokens in this vocabulary; a static bias cannot spell them in order. */
const MULTI_TOKEN_TRIGGER = (trigger: string): string =>
  `the server ignores tool_choice "required" here until the model writes ${trigger} by itself, which is several tokens in the tiny ` +
  'model\'s vocabulary: no logit_bias spells it in order, so the random model answers in text (probed: 0 calls in every try)';

/**
 * `}`, ` }` and `}}`: an object closes as soon as the grammar lets it, so a forced call
 * leaves out optional arguments (`task`'s `background` and `task_id`, which the random model
 * otherwise fills with nonsense about one call in three).
 */
const CLOSE_OBJECTS = (bias: number): Record<string, number> => ({ '29913': bias, '500': bias, '930': bias });

/** The six templates of `../shared/llama/templates/`. */
export const TEMPLATES: readonly TemplateProfile[] = [
  {
    label: 'Qwen2.5',
    file: 'Qwen-Qwen2.5-7B-Instruct.jinja',
    stopBias: { [EOS]: 2.5 },
    thinking: false,
    forcing: { impossible: MULTI_TOKEN_TRIGGER('<tool_call>') },
    cutReply: 'length',
  },
  {
    label: 'Qwen3.5',
    file: 'Qwen3.5-4B.jinja',
    stopBias: { [EOS]: 2.5 },
    thinking: true,
    forcing: { impossible: MULTI_TOKEN_TRIGGER('<tool_call>') },
    cutReply: 'length',
    refuses: {
      stored: [{ role: 'user', content: 'Hi' }, { role: 'assistant', content: 'Hello.' }, { role: 'system', content: 'Be brief.' }],
      status: 500,
      error: /System message must be at the beginning/,
      why: 'a system message after the conversation, e.g. from an imported session',
    },
  },
  {
    label: 'Mistral-Nemo',
    file: 'mistralai-Mistral-Nemo-Instruct-2407.jinja',
    stopBias: { [EOS]: 2.5 },
    thinking: false,
    forcing: { impossible: MULTI_TOKEN_TRIGGER('[TOOL_CALLS]') },
    cutReply: 'length',
    refuses: {
      stored: toolTurn('call_abc123'),
      status: 400,
      error: /Tool call IDs should be alphanumeric strings with length 9/,
      why: 'a tool call id that is not 9 letters and digits, as OpenAI\'s `call_...` ids',
    },
  },
  {
    label: 'Llama-3.1',
    file: 'meta-llama-Llama-3.1-8B-Instruct.jinja',
    stopBias: { [EOS]: 2.5 },
    thinking: false,
    // The grammar starts at a JSON object: the `{"` token (6377) is enough, and the tool name
    // is then constrained by the grammar. A plain reply under this bias is `{"{"...` until max_tokens.
    forcing: { bias: () => ({ '6377': 30, ...CLOSE_OBJECTS(25) }) },
    cutReply: 'length',
  },
  {
    label: 'Functionary v3.2',
    file: 'meetkai-functionary-medium-v3.2.jinja',
    // The prompt ends in `>>>`: the reply must begin `all\n` (text) or a tool name, or the
    // server rejects it. Only an empty reply is safe, so end at once.
    stopBias: { [EOS]: 15 },
    thinking: false,
    // README's bias (`>`, `>>`, `x`, `"`) keeps strings short; the tool name's first token picks
    // the call over `all\n` text; EOS above them all ends the reply after one call (the grammar keeps it out of the way until a call is whole), and a tool-less reply at once.
    forcing: { bias: (first) => ({ '29958': 20, '6778': 20, '29916': 20, '29908': 20, [String(first)]: 10, [EOS]: 25, ...CLOSE_OBJECTS(20) }) },
    cutReply: {
      serverError: /does not match the expected .* format/,
      why: 'the reply must begin `all\\n` or a tool name; any text the random model writes fails the server\'s parser, so a cut text reply never comes back as finish_reason "length"',
    },
  },
  {
    label: 'DeepSeek-R1',
    file: 'deepseek-ai-DeepSeek-R1-Distill-Qwen-32B.jinja',
    stopBias: { [EOS]: 2.5 },
    thinking: true,
    forcing: { impossible: `${MULTI_TOKEN_TRIGGER('<｜tool▁calls▁begin｜>')}; the template does not even render the tool list` },
    cutReply: 'length',
  },
];

/** The profile named `label`; throws for a typo. */
export function template(label: string): TemplateProfile {
  const found = TEMPLATES.find((t) => t.label === label);
  if (!found) throw new Error(`no template profile "${label}"; known: ${TEMPLATES.map((t) => t.label).join(', ')}`);
  return found;
}
