import type { ChatModel } from '../model/chat-model.js';
import type { ApprovalHandler } from '../permission/approval.js';
import type { PermissionRule } from '../permission/permission-rule.js';
import type { SessionStore } from '../session/session-store.js';
import type { Tool } from '../tools/tool.js';

/** Options of a `HarnessEngine`. Only `model` is required. */
export interface HarnessEngineOptions {
  /** The main agent's model (any {@link ChatModel}). */
  readonly model: ChatModel;
  /** The folder tools are confined to; default `process.cwd()`. */
  readonly workspace?: string;
  /** Children of one `multitask` running at once (a pool per call; the rest wait in order); 0 = no limit. Default 5. */
  readonly multitaskMaxTasks?: number;
  /** The most tasks one `multitask` call may hold (the schema the model sees says so). Default 200. */
  readonly multitaskMaxItems?: number;
  /** ReAct steps per run (a definition may set its own). Default 30. */
  readonly maxSteps?: number;
  /** Delegation depth: 1 (default) = children cannot delegate; 0 = no delegation at all. */
  readonly maxDepth?: number;
  /** Extra folders of `*.md` agent definitions, scanned after the standard ones. */
  readonly agentDirs?: readonly string[];
  /** False: no `task` / `multitask` / `generate` tools. Default true. */
  readonly subagentEnabled?: boolean;
  /** The engine's permission rules; they rank above the defaults. */
  readonly permissionRules?: readonly PermissionRule[];
  /** Decides tool calls a rule says to `ask` about; without it they are rejected. */
  readonly approve?: ApprovalHandler;
  /** Models a definition may name in its `model` field. */
  readonly models?: Readonly<Record<string, ChatModel>>;
  /** Where sessions live; default in memory. Use `FileSessionStore` to survive restarts. */
  readonly sessions?: SessionStore;
  /** The main agent's role prompt, replacing the built-in one. */
  readonly instructions?: string;
  /** Extra tools, given to the main agent and narrowed down to children like built-ins. */
  readonly tools?: readonly Tool[];
  /** Tools nobody gets (built-in, custom or delegation tools, by name). */
  readonly disabledTools?: readonly string[];
  /** Child output longer than this is truncated in the task result. Default 12,000. */
  readonly maxResultChars?: number;
  /**
   * A tool call running longer fails with a timeout result. Default 10 minutes. `task` and
   * `multitask` are exempt: their children are bounded by their own steps and tool timeouts.
   */
  readonly toolTimeoutMs?: number;
  /** The home folder whose `.rxharness/agents/` is scanned; default `os.homedir()`. */
  readonly homeDir?: string;
  /**
   * Let definitions from the workspace's `.rxharness/agents/` loosen their agent like any
   * other definition. Default false: a cloned repository is untrusted, so their `allow`
   * rules are ignored (with a diagnostic) and their rules only narrow.
   */
  readonly trustWorkspaceAgents?: boolean;
}

const KNOWN: ReadonlySet<string> = new Set([
  'model', 'workspace', 'multitaskMaxTasks', 'multitaskMaxItems', 'maxSteps', 'maxDepth', 'agentDirs', 'subagentEnabled',
  'permissionRules', 'approve', 'models', 'sessions', 'instructions', 'tools', 'disabledTools',
  'maxResultChars', 'toolTimeoutMs', 'homeDir', 'trustWorkspaceAgents',
]);

/** Rejects unknown options and values of the wrong kind with a message naming the option. */
export function checkEngineOptions(options: HarnessEngineOptions): void {
  if (typeof options !== 'object' || options === null) throw new TypeError('HarnessEngine: options must be an object with at least `model`');
  const unknown = Object.keys(options).filter((k) => !KNOWN.has(k));
  if (unknown.length) {
    throw new TypeError(`HarnessEngine: unknown option ${unknown.map((k) => `"${k}"`).join(', ')}; known options: ${[...KNOWN].join(', ')}`);
  }
  const o = options as unknown as Record<string, unknown>;
  if (!o.model || typeof (o.model as ChatModel).stream !== 'function') {
    throw new TypeError('HarnessEngine: `model` must be a ChatModel, e.g. new OpenAIChatModel({ model: "gpt-4o-mini" })');
  }
  integer(o, 'multitaskMaxTasks', 0);
  integer(o, 'multitaskMaxItems', 1);
  integer(o, 'maxSteps', 1);
  integer(o, 'maxDepth', 0);
  integer(o, 'maxResultChars', 1);
  integer(o, 'toolTimeoutMs', 1);
  kind(o, 'workspace', 'string');
  kind(o, 'instructions', 'string');
  kind(o, 'homeDir', 'string');
  kind(o, 'subagentEnabled', 'boolean');
  kind(o, 'trustWorkspaceAgents', 'boolean');
  kind(o, 'approve', 'function');
  for (const key of ['agentDirs', 'disabledTools', 'tools', 'permissionRules']) {
    if (o[key] !== undefined && !Array.isArray(o[key])) throw new TypeError(`HarnessEngine: \`${key}\` must be an array`);
  }
  for (const [name, model] of Object.entries((o.models ?? {}) as Record<string, unknown>)) {
    if (!model || typeof (model as ChatModel).stream !== 'function') {
      throw new TypeError(`HarnessEngine: \`models.${name}\` must be a ChatModel`);
    }
  }
}

function integer(o: Record<string, unknown>, key: string, min: number): void {
  const v = o[key];
  if (v !== undefined && (!Number.isInteger(v) || (v as number) < min)) {
    throw new RangeError(`HarnessEngine: \`${key}\` must be an integer >= ${min}, got ${JSON.stringify(v)}`);
  }
}

function kind(o: Record<string, unknown>, key: string, type: string): void {
  if (o[key] !== undefined && typeof o[key] !== type) {
    throw new TypeError(`HarnessEngine: \`${key}\` must be a ${type}, got ${typeof o[key]}`);
  }
}
