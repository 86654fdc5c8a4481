import type { ModelSettings } from '../model/model-settings.js';
import type { PermissionRule } from '../permission/index.js';

/**
 * Where a definition came from: shipped with the package, the workspace's
 * `.rxharness/agents/`, the user's `~/.rxharness/agents/`, an extra folder from
 * `agentDirs`, or code (`defineAgent`, the `generate` tool).
 */
export type AgentSource = 'builtin' | 'workspace' | 'user' | 'dir' | 'runtime';

/** What an agent name must match: letters, digits, `_` and `-`. */
export const AGENT_NAME_PATTERN = /^[a-zA-Z0-9_-]+$/;

/**
 * A subagent: who it is, what it may use, and the system prompt it runs with. Built by
 * {@link parseAgentMarkdown} from a Markdown file with YAML front matter, or by
 * {@link defineAgent} in code; always validated and frozen.
 */
export interface AgentDefinition {
  /** Identity, from the front matter only (never the file name). */
  readonly name: string;
  /** What the agent is for; the main agent reads it when choosing whom to delegate to. */
  readonly description: string;
  /** The Markdown body, trimmed; never empty. */
  readonly systemPrompt: string;
  /**
   * Allowed tools. `undefined`, `[]` or `['*']` mean every tool the parent has. Real tool
   * names only: the aliases a file may use (`**`, `pi`, `ls`) are expanded when it is built.
   */
  readonly tools?: readonly string[];
  /** Tools taken away even when `tools` allows them. */
  readonly disallowedTools?: readonly string[];
  /** A model name from the engine's `models`; the parent's model when absent. */
  readonly model?: string;
  /**
   * Skills put into this agent's system prompt, by name: each is
   * `.rxharness/skills/<name>/SKILL.md` in the workspace or the home folder (docs/definitions.md).
   */
  readonly skills?: readonly string[];
  /** ReAct step limit for a run of this agent (a positive integer); the engine's when absent. */
  readonly maxSteps?: number;
  /**
   * The most tokens a run of this agent and what it delegates may use, within its parent's
   * remainder (front matter `tokenBudget` or `token_budget`); absent: only the parent's applies.
   */
  readonly tokenBudget?: number;
  /**
   * Model settings of this agent's requests (front matter: `temperature`, `top_p`,
   * `max_tokens`, `tool_choice`, `parallel_tool_calls`); they apply to this agent only.
   */
  readonly settings?: ModelSettings;
  /**
   * What the definition is for: `subagent` (the default when absent) is offered to `task` and
   * `multitask`; `primary` defines the main agent instead and is not offered as a subagent;
   * `all` is both. At most one definition is the primary (see `AgentManager.primary`).
   */
  readonly mode?: 'subagent' | 'primary' | 'all';
  /**
   * The agent card URL of a remote A2A agent (`https://host/.well-known/agent-card.json`, or
   * the agent's base URL): its tasks run there, not here, and its updates arrive wrapped like
   * any child's (docs/protocols.md). The system prompt, tools and model do not apply to it.
   */
  readonly a2a?: string;
  /** A colour for UIs to show the agent in (a name or `#hex`, as the file gives it); the harness only keeps it. */
  readonly color?: string;
  /**
   * Set in a file that replaces a built-in agent of the same name: without `override: true`
   * such a file is ignored (with a diagnostic). It has no effect in code, where `add` replaces.
   */
  readonly override?: boolean;
  /** Hidden agents are left out of listings and tool descriptions but can run by name. */
  readonly hidden: boolean;
  /** Disabled agents are left out of listings. */
  readonly enabled: boolean;
  /** The agent's own permission rules, layered above the engine's. */
  readonly permissionRules: readonly PermissionRule[];
  /** Where the definition came from; listings show it. */
  readonly source: AgentSource;
  /** Absolute path of the file it was read from, if any. */
  readonly file?: string;
  /** Front-matter keys this version does not know: kept (and written back) but ignored. */
  readonly extra: Readonly<Record<string, unknown>>;
}

/** Where a definition being parsed comes from; `file` also labels error messages. */
export interface AgentOrigin {
  /** The source the parsed definition gets. */
  readonly source: AgentSource;
  /** The file being parsed, when there is one. */
  readonly file?: string;
}
