import type { ChatModel } from '../model/chat-model.js';
import type { ModelSettings } from '../model/model-settings.js';
import { OpenAIChatModel } from '../model/openai-chat-model.js';

/** The limits an operator set on a model, as its requests carry them (see {@link modelLimits}). */
export interface ModelLimits {
  /** The smallest reply cap the model sends: its `maxTokens`, `max_tokens` or `max_completion_tokens`. */
  readonly maxTokens?: number;
  /** The model's set context window. */
  readonly contextWindow?: number;
  /** The model's tool choice: its setting, or else `'none'` from its extra body. */
  readonly toolChoice?: ModelSettings['toolChoice'];
  /** Whether the model's requests allow parallel tool calls: its setting, or else `false` from its extra body. */
  readonly parallelToolCalls?: boolean;
}

/**
 * The limits `model` sends with every request: its settings, and the fields of its extra body
 * (`--extra-body '{"max_tokens":100}'`) that the settings do not override on the wire. The
 * `ChatModel` contract has no extra body: an `OpenAIChatModel`'s is read (other models have
 * their settings only).
 */
export function modelLimits(model: ChatModel): ModelLimits {
  const settings = model.settings ?? {};
  const extra = extraBodyOf(model);
  // In the body the extra fields come first, so a setting replaces its own field; max_completion_tokens stays beside max_tokens.
  const caps = [settings.maxTokens ?? extra.max_tokens, extra.max_completion_tokens].filter(isNumber);
  const toolChoice = settings.toolChoice ?? (extra.tool_choice === 'none' ? 'none' : undefined);
  const parallelToolCalls = settings.parallelToolCalls ?? (extra.parallel_tool_calls === false ? false : undefined);
  return {
    ...(caps.length > 0 ? { maxTokens: Math.min(...caps) } : {}),
    ...(settings.contextWindow !== undefined ? { contextWindow: settings.contextWindow } : {}),
    ...(toolChoice !== undefined ? { toolChoice } : {}),
    ...(parallelToolCalls !== undefined ? { parallelToolCalls } : {}),
  };
}

function extraBodyOf(model: ChatModel): Readonly<Record<string, unknown>> {
  return model instanceof OpenAIChatModel ? model.extraBody : {};
}

function isNumber(value: unknown): value is number {
  return typeof value === 'number' && Number.isFinite(value);
}
