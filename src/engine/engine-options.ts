import type { Static } from 'typebox';
import type { ChatModel } from '../model/chat-model.js';
import type { ApprovalHandler } from '../permission/approval.js';
import { configValidator, type ConfigProblem } from '../permission/config-validator.js';
import type { PermissionRuleInput } from '../permission/permission-rule.js';
import type { SessionStore } from '../session/session-store.js';
import type { Tool } from '../tools/tool.js';
import type { EventLog } from '../runs/event-log.js';
import type { HarnessBackend } from './harness-backend.js';
import { checkMcpServers, type McpServerConfig } from '../mcp/mcp-server-config.js';

/** Options of a `HarnessEngine`. Only `model` is required. */
export interface HarnessEngineOptions {
  /** The main agent's model (any {@link ChatModel}). */
  readonly model: ChatModel;
  /** The folder tools are confined to; default `process.cwd()`. */
  readonly workspace?: string;
  /** Children of one `multitask` running at once (a pool per call; the rest wait in order); 0 = no limit. Default 5. */
  readonly multitaskMaxTasks?: number;
  /**
   * Model requests in flight at once across every run and depth of this engine (one p-limit
   * limiter for all its models); the others wait in order. A leaf limit: requests never nest,
   * so it cannot deadlock a delegation. Default: no limit. Compare `multitaskMaxTasks`, which
   * bounds the children of one `multitask` call (each child makes one request at a time).
   */
  readonly maxConcurrentRequests?: number;
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
  /** The engine's permission rules; they rank above the defaults. Solon's spelling (`toolName`, `behavior`) is accepted too. */
  readonly permissionRules?: readonly PermissionRuleInput[];
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
  /**
   * How long a call that asks for approval waits for its answer, in milliseconds: after it the
   * call is rejected (the model reads that it timed out waiting for approval), its question
   * is withdrawn (the `approve` handler's signal aborts: a page's card, a terminal prompt) and
   * `HITLDecided` says `timedOut: true`. Default: none (it waits until the run ends).
   */
  readonly approvalTimeoutMs?: number;
  /** The home folder whose `.rxharness/agents/` is scanned; default `os.homedir()`. */
  readonly homeDir?: string;
  /**
   * Let definitions from the workspace's `.rxharness/agents/` loosen their agent like any
   * other definition. Default false: a cloned repository is untrusted, so their `allow`
   * rules are ignored (with a diagnostic) and their rules only narrow.
   */
  readonly trustWorkspaceAgents?: boolean;
  /** How long a finished run started with `start()` stays attachable, in milliseconds. Default 10 minutes. */
  readonly runRetentionMs?: number;
  /** The most finished started runs kept for attaching; the oldest beyond it are evicted. Default 1,000. */
  readonly maxRetainedRuns?: number;
  /**
   * The most bytes finished started runs' events may hold together (an estimate, see
   * `engine.runs.retainedBytes`); the oldest beyond it are evicted, so a flood of runs with
   * large prompts cannot fill the memory. Default 64 MiB.
   */
  readonly maxRetainedRunBytes?: number;
  /** Where started runs' events are kept; default in memory (a `MemoryEventLog`). */
  readonly eventLog?: EventLog;
  /**
   * The most tokens a run of the main agent and everything it delegates may use together
   * (a definition or a run may set a smaller one); spent, the run makes one last step without
   * tools and ends abnormally. Also a background task's, unless its definition sets its own.
   */
  readonly tokenBudget?: number;
  /**
   * MCP servers whose tools the agents get, as `mcp__<server>__<tool>`: a process over stdio
   * (`{ command, args?, env? }`) or Streamable HTTP (`{ url, headers? }`). Each starts when
   * the first run that may use it starts, and stops with `close()`.
   */
  readonly mcpServers?: Readonly<Record<string, McpServerConfig>>;
  /**
   * Scale out: sessions, event logs, runs, task state and approvals shared with every engine
   * and worker on the backend (`await redisBackend({ url })`). Background tasks then run on
   * workers (`HarnessWorker`). Not with `sessions` or `eventLog`: the backend brings its own.
   */
  readonly backend?: HarnessBackend;
  /** With a `backend`: foreground tasks run on workers too (default false: in this process). */
  readonly distributeTasks?: boolean;
}

// Values beyond JSON are checked by kind (`jsKind`: a function, or an object with that
// method); rules and tools get their own, more specific checks where they are used.
const chatModel = { jsKind: 'stream' } as const;
const count = (minimum: number) => ({ type: 'integer', minimum }) as const;

/**
 * The options' shape, written once: {@link checkEngineOptions} checks against it and words
 * its messages from it (the known options, each one's kind and minimum). A JSON schema
 * literal, not TypeBox builders: those would load ~370 modules when the package is imported
 * (test/packaging/import-cost.test.ts).
 */
const ENGINE_OPTIONS_SCHEMA = {
  type: 'object',
  required: ['model'],
  properties: {
    model: chatModel,
    workspace: { type: 'string' },
    multitaskMaxTasks: count(0),
    multitaskMaxItems: count(1),
    maxConcurrentRequests: count(1),
    maxSteps: count(1),
    maxDepth: count(0),
    agentDirs: { type: 'array', items: { type: 'string' } },
    subagentEnabled: { type: 'boolean' },
    permissionRules: { type: 'array', items: {} },
    approve: { jsKind: 'function' },
    models: { type: 'object', patternProperties: { '^.*$': chatModel } },
    sessions: {},
    instructions: { type: 'string' },
    tools: { type: 'array', items: {} },
    disabledTools: { type: 'array', items: { type: 'string' } },
    maxResultChars: count(1),
    toolTimeoutMs: count(1),
    approvalTimeoutMs: count(1),
    homeDir: { type: 'string' },
    trustWorkspaceAgents: { type: 'boolean' },
    runRetentionMs: count(0),
    maxRetainedRuns: count(0),
    maxRetainedRunBytes: count(0),
    eventLog: { jsKind: 'read' },
    tokenBudget: count(1),
    // Each server is checked by checkMcpServers, whose messages name the server and its key.
    mcpServers: { type: 'object', patternProperties: { '^.*$': {} } },
    backend: { jsKind: 'childLauncher' },
    distributeTasks: { type: 'boolean' },
  },
  additionalProperties: false,
} as const;

// `Static` reads a value checked by kind, or not at all, as `unknown` (in an array or record:
// `unknown[]`, a record of `unknown`): those options' types are said here by hand, as
// `Type.Unsafe<T>` once did, and `AsRead` checks each against the shape the schema gives it.
type ByKind = {
  model: ChatModel;
  permissionRules: PermissionRuleInput[];
  approve: ApprovalHandler;
  models: Record<string, ChatModel>;
  sessions: SessionStore;
  tools: Tool[];
  eventLog: EventLog;
  mcpServers: Record<string, McpServerConfig>;
  backend: HarnessBackend;
};
type Read = Static<typeof ENGINE_OPTIONS_SCHEMA>;
type Checked = { [K in keyof Read]: K extends keyof ByKind ? ByKind[K] : Read[K] };
type AsRead<T> = T extends readonly unknown[] ? unknown[] : string extends keyof T ? { [key: string]: unknown } : unknown;

// The public interface keeps its documented fields; this fails to compile the day it and
// the schema disagree on a key, on which keys are required, or on a type.
type RequiredKeys<T> = { [K in keyof T]-?: object extends Pick<T, K> ? never : K }[keyof T];
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const schemaMatchesInterface: Same<keyof Checked, keyof HarnessEngineOptions> &
  Same<RequiredKeys<Checked>, RequiredKeys<HarnessEngineOptions>> &
  (Checked extends HarnessEngineOptions ? true : false) &
  Same<{ [K in keyof ByKind]: Same<Required<Read>[K], AsRead<ByKind[K]>> }[keyof ByKind], true> = true;
void schemaMatchesInterface;

const KNOWN = Object.keys(ENGINE_OPTIONS_SCHEMA.properties);
const check = configValidator(ENGINE_OPTIONS_SCHEMA);

/**
 * Rejects unknown options and values of the wrong kind with a message naming the option: a
 * `RangeError` for a count out of range, a `TypeError` for anything else.
 *
 * @example
 * ```ts
 * checkEngineOptions({ model, maxSteps: 0 }); // RangeError: HarnessEngine: `maxSteps` must be an integer >= 1, got 0
 * ```
 */
export function checkEngineOptions(options: HarnessEngineOptions): void {
  const problems = check(options);
  if (problems.length === 0) {
    if (options.mcpServers) checkMcpServers(options.mcpServers);
    return;
  }
  // Unknown options first (a typo explains the rest), then the options in the schema's order.
  const rank = (p: ConfigProblem): number => (p.unknownKeys ? -1 : p.path.length === 0 ? -2 : KNOWN.indexOf(p.path[0]!));
  throw errorFor([...problems].sort((a, b) => rank(a) - rank(b))[0]!);
}

function errorFor({ path, value, schema, unknownKeys }: ConfigProblem): Error {
  const say = (text: string): string => `HarnessEngine: ${text}`;
  if (path.length === 0 && unknownKeys) {
    return new TypeError(say(`unknown option ${unknownKeys.map((k) => `"${k}"`).join(', ')}; known options: ${KNOWN.join(', ')}`));
  }
  if (path.length === 0) return new TypeError(say('options must be an object with at least `model`'));
  // `models.fast`, `agentDirs[1]`
  const name = `\`${path.map((part, i) => (i === 0 ? part : /^\d+$/.test(part) ? `[${part}]` : `.${part}`)).join('')}\``;
  if (schema.jsKind === 'stream') {
    return new TypeError(say(path[0] === 'model' ? `${name} must be a ChatModel, e.g. new OpenAIChatModel({ model: "gpt-4o-mini" })` : `${name} must be a ChatModel`));
  }
  if (schema.type === 'integer') return new RangeError(say(`${name} must be an integer >= ${String(schema.minimum)}, got ${typeof value === 'string' ? JSON.stringify(value) : String(value)}`));
  const kind = schema.jsKind ?? schema.type;
  const article = kind === 'array' || kind === 'object' ? 'an' : 'a';
  return new TypeError(say(`${name} must be ${article} ${String(kind)}, got ${value === null ? 'null' : Array.isArray(value) ? 'an array' : typeof value}`));
}

/**
 * Rejects options that contradict each other: a backend brings its own sessions and event
 * log, and `distributeTasks` needs workers to distribute to. (The schema checks each alone.)
 *
 * @example
 * ```ts
 * checkBackendOptions({ model, distributeTasks: true }); // TypeError: ... needs a `backend` ...
 * ```
 */
export function checkBackendOptions(options: HarnessEngineOptions): void {
  const say = (text: string): TypeError => new TypeError(`HarnessEngine: ${text}`);
  if (options.backend && options.sessions) throw say('`sessions` and `backend` cannot be given together: the backend keeps the sessions');
  if (options.backend && options.eventLog) throw say('`eventLog` and `backend` cannot be given together: the backend keeps the event logs');
  if (options.distributeTasks && !options.backend) throw say('`distributeTasks` needs a `backend` whose workers run the tasks, e.g. await redisBackend({ url })');
}
