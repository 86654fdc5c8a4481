import type { Static } from 'typebox';
import type { ChatModel } from '../model/chat-model.js';
import type { ApprovalHandler } from '../permission/approval.js';
import { firstProblem, type MessageContext } from '../validation/schema-message.js';
import type { PermissionRuleInput } from '../permission/permission-rule.js';
import type { SessionStore } from '../session/session-store.js';
import type { Tool } from '../tools/tool.js';
import type { EventLog } from '../runs/event-log.js';
import type { HarnessBackend } from './harness-backend.js';
import { checkMcpServers, type McpServerConfig } from '../mcp/mcp-server-config.js';
import type { RemoteA2AOptions } from '../delegation/a2a/remote-a2a-options.js';
import { checkRemoteA2AOptions } from '../delegation/a2a/remote-credentials.js';
import type { TaskTrackerLimits } from '../delegation/task-tracker-limits.js';
import { MAX_TIMER_MS } from '../validation/max-timer.js';
import { MAX_DELEGATION_DEPTH } from '../validation/json-depth.js';

// Values beyond JSON are checked by kind (`jsKind`: a function, or an object with that
// method); rules and tools get their own, more specific checks where they are used.
// Each entry says how its message reads (MessageAnnotations in src/validation): a value of
// the wrong kind names the kind it got (`got number`), a count the value (`got 0`).
const MUST_BE_KIND = '{subject} must be {description}, got {type}';
const kind = <T extends string>(type: T, description: string) => ({ type, description, errorMessage: MUST_BE_KIND }) as const;
const byMethod = <M extends string>(jsKind: M, description: string) => ({ jsKind, description, errorMessage: MUST_BE_KIND }) as const;
const chatModel = { jsKind: 'stream', errorMessage: '{subject} must be a ChatModel' } as const;
const count = <N extends number>(minimum: N) => ({ type: 'integer', minimum, description: `an integer >= ${minimum}` }) as const;
// A count that becomes a timer: above MAX_TIMER_MS Node would fire it after 1 ms, so it is refused.
const timerMs = <N extends number>(minimum: N) =>
  ({ type: 'integer', minimum, maximum: MAX_TIMER_MS, description: `an integer of milliseconds from ${minimum} to ${MAX_TIMER_MS} (the longest a timer holds, about 24.8 days)` }) as const;
const strings = { ...kind('array', 'an array'), items: kind('string', 'a string') } as const;

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
    /** The main agent's model (any {@link ChatModel}). */
    model: { ...chatModel, errorMessage: '{subject} must be a ChatModel, e.g. new OpenAIChatModel({ model: "gpt-4o-mini" })' },
    /** The folder tools are confined to; default `process.cwd()`. */
    workspace: kind('string', 'a string'),
    /** Children of one `multitask` running at once (a pool per call; the rest wait in order); 0 = no limit. Default 5. */
    multitaskMaxTasks: count(0),
    /** The most tasks one `multitask` call may hold (the schema the model sees says so). Default 200. */
    multitaskMaxItems: count(1),
    /**
     * Background tasks (`task` with `background: true`) one conversation may have running at
     * once in this engine, its children's included; a call beyond it is refused with a failure
     * result that says so (wait for one, or run the task in the foreground). 0 = no limit.
     * Default 32.
     */
    maxBackgroundTasks: count(0),
    /**
     * Model requests in flight at once across every run and depth of this engine (one p-limit
     * limiter for all its models); the others wait in order. A leaf limit: requests never nest,
     * so it cannot deadlock a delegation. Default: no limit. Compare `multitaskMaxTasks`, which
     * bounds the children of one `multitask` call (each child makes one request at a time).
     */
    maxConcurrentRequests: count(1),
    /** ReAct steps per run (a definition may set its own). Default 30. */
    maxSteps: count(1),
    /**
     * Delegation depth: 1 (default) = children cannot delegate; 0 = no delegation at all. At
     * most 64: a descendant's events arrive under one `TaskWrap` per level, and the client
     * (`fromRun`) and `parseNdjson` read at most 64.
     */
    maxDepth: {
      type: 'integer',
      minimum: 0,
      maximum: MAX_DELEGATION_DEPTH,
      description: `an integer from 0 to ${MAX_DELEGATION_DEPTH} (the TaskWraps a run's readers, the client and parseNdjson, accept around an event)`,
    },
    /** Extra folders of `*.md` agent definitions, scanned after the standard ones. */
    agentDirs: strings,
    /** False: no `task` / `multitask` / `generate` tools. Default true. */
    subagentEnabled: kind('boolean', 'a boolean'),
    /** The engine's permission rules; they rank above the defaults. Solon's spelling (`toolName`, `behavior`) is accepted too. */
    permissionRules: { ...kind('array', 'an array'), items: {} },
    /** Decides tool calls a rule says to `ask` about; without it they are rejected. */
    approve: byMethod('function', 'a function'),
    /** Models a definition may name in its `model` field. */
    models: { ...kind('object', 'an object'), patternProperties: { '^.*$': chatModel } },
    /** Where sessions live; default in memory. Use `FileSessionStore` to survive restarts. */
    sessions: {},
    /** The main agent's role prompt, replacing the built-in one. */
    instructions: kind('string', 'a string'),
    /** Extra tools, given to the main agent and narrowed down to children like built-ins. */
    tools: { ...kind('array', 'an array'), items: {} },
    /** Tools nobody gets (built-in, custom or delegation tools, by name). */
    disabledTools: strings,
    /** Child output longer than this is truncated in the task result. Default 12,000. */
    maxResultChars: count(1),
    /**
     * A tool call running longer fails with a timeout result. Default 10 minutes. `task` and
     * `multitask` are exempt: their children are bounded by their own steps and tool timeouts.
   * At most 2,147,483,647 (about 24.8 days), the longest a timer holds.
     */
    toolTimeoutMs: timerMs(1),
    /**
     * How long a call that asks for approval waits for its answer, in milliseconds: after it the
     * call is rejected (the model reads that it timed out waiting for approval), its question
     * is withdrawn (the `approve` handler's signal aborts: a page's card, a terminal prompt) and
     * `HITLDecided` says `timedOut: true`. Default: none (it waits until the run ends). At most
   * 2,147,483,647 (about 24.8 days), the longest a timer holds; leave it out to wait longer.
     */
    approvalTimeoutMs: timerMs(1),
    /** The home folder whose `.rxharness/agents/` is scanned; default `os.homedir()`. */
    homeDir: kind('string', 'a string'),
    /**
     * Let definitions from the workspace's `.rxharness/agents/` loosen their agent like any
     * other definition. Default false: a cloned repository is untrusted, so their `allow`
     * rules are ignored (with a diagnostic) and their rules only narrow.
     */
    trustWorkspaceAgents: kind('boolean', 'a boolean'),
    /** How long a finished run started with `start()` stays attachable, in milliseconds of the monotonic clock (a wall clock set back or forward changes nothing). Default 10 minutes. */
    runRetentionMs: count(0),
    /** The most finished started runs kept for attaching; the oldest beyond it are evicted. Default 1,000. */
    maxRetainedRuns: count(0),
    /**
     * The most bytes finished started runs' events may hold together (an estimate, see
     * `engine.runs.retainedBytes`); the oldest beyond it are evicted, so a flood of runs with
     * large prompts cannot fill the memory. Default 64 MiB.
     */
    maxRetainedRunBytes: count(0),
    /** Where started runs' events are kept; default in memory (a `MemoryEventLog`). */
    eventLog: byMethod('read', 'an EventLog (an object with read)'),
    /**
     * The most tokens a run of the main agent and everything it delegates may use together
     * (a definition or a run may set a smaller one); spent, the run makes one last step without
     * tools and ends abnormally. Also a background task's, unless its definition sets its own.
     */
    tokenBudget: count(1),
    // Each server is checked by checkMcpServers, whose messages name the server and its key.
    /**
     * MCP servers whose tools the agents get, as `mcp__<server>__<tool>`: a process over stdio
     * (`{ command, args?, env? }`) or Streamable HTTP (`{ url, headers? }`). Each starts when
     * the first run that may use it starts, and stops with `close()`.
     */
    mcpServers: { ...kind('object', 'an object'), patternProperties: { '^.*$': {} } },
    /**
     * Scale out: sessions, event logs, runs, task state and approvals shared with every engine
     * and worker on the backend (`await redisBackend({ url })`). Background tasks then run on
     * workers (`HarnessWorker`). Not with `sessions` or `eventLog`: the backend brings its own.
     */
    backend: byMethod('childLauncher', 'a HarnessBackend (e.g. await redisBackend({ url }))'),
    /** With a `backend`: foreground tasks run on workers too (default false: in this process). */
    distributeTasks: kind('boolean', 'a boolean'),
    /**
     * How much `engine.tasks` keeps: finished tasks, their event logs, and background results
     * waiting for their conversation's next prompt (see `TaskTrackerLimits`; each has a
     * default). With a `backend`, `undeliveredResults` and `undeliveredChars` bound the results
     * waiting in Redis, workers' included; give every engine of a deployment the same ones.
     */
    taskTrackerLimits: {
      ...kind('object', 'an object'),
      errorMessage: { type: MUST_BE_KIND, additionalProperties: '{parent} has unknown key {unknown}; known: {known}' },
      properties: {
        retainFinished: count(0),
        retainedBytes: count(0),
        runningEventBytes: count(0),
        undeliveredResults: count(1),
        undeliveredChars: count(0),
      },
      additionalProperties: false,
    },
    /**
     * Remote A2A agents (definitions with `a2a: <card URL>`): `token` (default
     * `RXHARNESS_A2A_TOKEN`), `headers(request)` for credentials per remote, `idleTimeoutMs`
     * (default 5 minutes; 0: never), and what one remote task may send: `maxUpdates` (default
     * 25,000) and `maxChars` (default 1,000,000). See `RemoteA2AOptions`.
     */
    a2a: {
      ...kind('object', 'an object'),
      errorMessage: { type: MUST_BE_KIND, additionalProperties: '{parent} has unknown key {unknown}; known: {known}' },
      properties: { token: kind('string', 'a string'), headers: byMethod('function', 'a function'), idleTimeoutMs: timerMs(0), maxUpdates: count(1), maxChars: count(1) },
      additionalProperties: false,
    },
  },
  additionalProperties: false,
  errorMessage: {
    type: 'options must be an object with at least `model`',
    additionalProperties: 'unknown option {unknown}; known options: {known}',
  },
} as const;

// `Static` reads a value checked by kind, or not at all, as `unknown`: those options' types
// are said here (as `Type.Unsafe<T>` would); the keys, which are required and every other
// type come from the schema. Arrays are read-only for the caller's sake.
interface ByKind {
  model: ChatModel;
  permissionRules: readonly PermissionRuleInput[];
  approve: ApprovalHandler;
  models: Readonly<Record<string, ChatModel>>;
  sessions: SessionStore;
  tools: readonly Tool[];
  eventLog: EventLog;
  mcpServers: Readonly<Record<string, McpServerConfig>>;
  backend: HarnessBackend;
  a2a: RemoteA2AOptions;
  taskTrackerLimits: TaskTrackerLimits;
}
type Frozen<T> = T extends (infer Item)[] ? readonly Item[] : T;
type Read = Required<Static<typeof ENGINE_OPTIONS_SCHEMA>>;
type Option<K> = K extends keyof ByKind ? ByKind[K] : K extends keyof Read ? Frozen<Read[K]> : never;
type Entries = (typeof ENGINE_OPTIONS_SCHEMA)['properties'];
type RequiredKey = (typeof ENGINE_OPTIONS_SCHEMA)['required'][number];
// Mapped over the schema's own entries (not over `Read`), so each option keeps the TSDoc
// written on its entry; the second part makes the schema's required keys required.
type Typed = { readonly [K in keyof Entries]?: Option<K> } & { readonly [K in RequiredKey]: Option<K> };

/**
 * Options of a `HarnessEngine`: the type of the schema `checkEngineOptions` checks them
 * against (written once, each option's TSDoc on its schema entry). Only `model` is required.
 */
export interface HarnessEngineOptions extends Typed {}

// Options are given in code: keys as code names them (`models.fast`), values as literals.
const AS_CODE: MessageContext = { holder: 'options', spelled: (path) => path.at(-1)!, names: 'code', values: 'literal' };

/**
 * Rejects unknown options and values of the wrong kind with a message naming the option,
 * worded from the options' schema: a `RangeError` for a count out of range, a `TypeError`
 * for anything else.
 *
 * @example
 * ```ts
 * checkEngineOptions({ model, maxSteps: 0 }); // RangeError: HarnessEngine: `maxSteps` must be an integer >= 1, got 0
 * ```
 */
export function checkEngineOptions(options: HarnessEngineOptions): void {
  const problem = firstProblem(ENGINE_OPTIONS_SCHEMA, options, AS_CODE);
  if (problem === undefined) {
    if (options.mcpServers) checkMcpServers(options.mcpServers);
    if (options.a2a) checkRemoteA2AOptions(options.a2a);
    return;
  }
  const message = `HarnessEngine: ${problem.message}`;
  throw problem.schema['type'] === 'integer' ? new RangeError(message) : new TypeError(message);
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
