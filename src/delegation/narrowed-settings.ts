import type { ChatModel } from '../model/chat-model.js';
import type { ModelSettings } from '../model/model-settings.js';
import type { AgentDefinition } from '../subagent/agent-definition.js';
import type { AgentDiagnostic } from '../subagent/agent-diagnostic.js';
import { quotedName } from '../tools/args-validator.js';
import { modelLimits } from './model-limits.js';

/**
 * A `Warning` a run of the agent starts with: a setting of its definition that was not applied.
 * Its `file` and `reason` are the same words split as a definition's diagnostic is, for
 * `rxharness agents`, which lists them with the others.
 */
export interface SettingWarning extends AgentDiagnostic {
  readonly code: 'definition-setting-ignored';
  /** `file: reason`, as the run's `Warning` says it. */
  readonly message: string;
}

/** A definition's settings as they apply to its agent, and what was left out of them. */
export interface NarrowedSettings {
  readonly settings: ModelSettings | undefined;
  readonly warnings: readonly SettingWarning[];
}

const NONE: readonly SettingWarning[] = Object.freeze([]);

/**
 * A definition's model settings, as they apply on `model`. A definition that may not loosen
 * its agent (a workspace file, see `mayLoosen`) only narrows the limits the operator gave the
 * model: its settings override the model's on the wire, so `max_tokens: 1000000` would lift
 * `--max-tokens 100`, `context_window: 10000000` would stop compaction, and
 * `tool_choice: required` would undo `--tool-choice none`. Its `max_tokens` is held to the
 * model's cap (its `maxTokens`, or `max_tokens` / `max_completion_tokens` in its extra body);
 * its `context_window` applies only when it is no larger than the model's set window (unset,
 * nothing says the file is right, and a window too large keeps the server's refusals from
 * being learned); a model's `tool_choice: none` and `parallel_tool_calls: false` are kept.
 * Sampling settings (`temperature`, `top_p`) limit nothing and apply as given. Each change is reported.
 */
export function narrowedSettings(definition: AgentDefinition, model: ChatModel, trusted: boolean): NarrowedSettings {
  const own = definition.settings;
  if (!own || trusted) return { settings: own, warnings: NONE };
  const { maxTokens, contextWindow, toolChoice, parallelToolCalls, ...rest } = own;
  const limits = modelLimits(model);
  const warnings: SettingWarning[] = [];
  const settings: { -readonly [K in keyof ModelSettings]: ModelSettings[K] } = { ...rest };
  if (maxTokens !== undefined) {
    const cap = limits.maxTokens;
    settings.maxTokens = cap === undefined ? maxTokens : Math.min(maxTokens, cap);
    if (cap !== undefined && maxTokens > cap) warnings.push(warning(definition, `max_tokens ${maxTokens} is lowered to ${cap}, the model's`));
  }
  if (contextWindow !== undefined) {
    const window = limits.contextWindow;
    if (window !== undefined && contextWindow <= window) settings.contextWindow = contextWindow;
    else if (window !== undefined) warnings.push(warning(definition, `context_window ${contextWindow} is ignored: it is larger than the model's (${window})`));
    else warnings.push(warning(definition, `context_window ${contextWindow} is ignored: the model's window is not set (--context-window, or the model's contextWindow setting), so it may not be larger`));
  }
  if (toolChoice !== undefined) {
    // 'none' narrows whatever the model says; any other choice would let a model told to call no tool call one.
    const held = limits.toolChoice === 'none' && toolChoice !== 'none';
    settings.toolChoice = held ? 'none' : toolChoice;
    if (held) warnings.push(warning(definition, `tool_choice ${typeof toolChoice === 'string' ? toolChoice : `{ name: ${quotedName(toolChoice.name)} }`} is ignored: the model's is "none"`));
  }
  if (parallelToolCalls !== undefined) {
    const held = limits.parallelToolCalls === false && parallelToolCalls;
    settings.parallelToolCalls = held ? false : parallelToolCalls;
    if (held) warnings.push(warning(definition, "parallel_tool_calls true is ignored: the model's is false"));
  }
  return { settings: Object.keys(settings).length > 0 ? Object.freeze(settings) : undefined, warnings: warnings.length > 0 ? Object.freeze(warnings) : NONE };
}

function warning(definition: AgentDefinition, what: string): SettingWarning {
  const file = definition.file ?? `agent ${quotedName(definition.name)} (${definition.source})`;
  const reason =
    `${what}. A definition in the workspace may only narrow its agent. Set the engine option ` +
    'trustWorkspaceAgents to trust workspace definitions, or move the file to ~/.rxharness/agents/ or a folder in agentDirs.';
  return { code: 'definition-setting-ignored', file, reason, message: `${file}: ${reason}` };
}
