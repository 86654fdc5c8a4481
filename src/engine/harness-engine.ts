import { randomUUID } from 'node:crypto';
import { defer, type Observable } from 'rxjs';
import { ReActAgent } from '../agent/react-agent.js';
import { resolveWorkspace } from '../agent/resolve-workspace.js';
import type { RunOptions, RunResult } from '../agent/run-types.js';
import type { AgentEvent, CompactionEvent } from '../events/agent-event.js';
import type { AgentScope, PromptPrefix } from '../agent/agent-scope.js';
import { compactStoredSession } from '../agent/compact-session.js';
import type { MaybePromise, SessionStore } from '../session/session-store.js';
import type { ChatMessage } from '../model/chat-message.js';
import type { AgentManager } from '../subagent/agent-manager.js';
import { UnknownAgentError } from '../subagent/unknown-agent-error.js';
import { MemoryEventLog } from '../runs/memory-event-log.js';
import { RunRegistry, type RunHandle } from '../runs/run-registry.js';
import { approvalRouter } from './approval-router.js';
import type { TaskTracker } from '../delegation/task-tracker.js';
import { conversationPrefix } from './prompt-prefix.js';
import { buildTree, DEFAULT_MAX_RESULT_CHARS, type Tree } from './build-tree.js';
import { EngineClosedError } from './engine-closed-error.js';
import { checkBackendOptions, checkEngineOptions, type HarnessEngineOptions } from './engine-options.js';
import { assertSessionId, newSessionId } from '../session/session-id.js';
import type { AgentDefinition } from '../subagent/agent-definition.js';
import { StoppableWork } from './stoppable-work.js';
import { SubagentBuilder } from './subagent-builder.js';
import { assertRunTools, scopeWithTools } from './scope-with-tools.js';
import type { Tool } from '../tools/tool.js';
import { isTaskSession, refusingTaskSessions, taskSessionError, unlessTaskSession$ } from './task-session-guard.js';

/**
 * The composition root: a main agent with the built-in tools, subagent definitions, the
 * delegation tools, permissions and sessions, wired from one options object.
 *
 * @example
 * ```ts
 * const engine = new HarnessEngine({ model: new OpenAIChatModel({ model: 'gpt-4o-mini' }) });
 * engine.stream('Find the TODOs in src/ and group them by file').subscribe(console.log);
 * const result = await engine.call('Summarise README.md');
 * ```
 */
export class HarnessEngine {
  /** The subagent definitions: built-ins, discovered files and programmatic ones. */
  readonly agents: AgentManager;
  /** Every delegated task: state, result, cancellation. */
  readonly tasks: TaskTracker;
  /** The workspace, absolute with symlinks resolved. */
  readonly workspace: string;
  /**
   * Where conversations and task sessions live (the `sessions` option, or an in-memory store
   * keeping the 10,000 most recently used). Delete a conversation with `sessions.delete?.(id)`:
   * through the engine, that also forgets its "always" approvals and its background results
   * not yet delivered (the store given as `sessions` is wrapped; deleting through that store
   * itself forgets only what the store keeps).
   */
  readonly sessions: SessionStore;
  /**
   * The runs started with {@link HarnessEngine.start}: attach to one from any position, read
   * what is known of it, list them, cancel one, answer its approvals.
   */
  readonly runs: RunRegistry;
  private readonly tree: Tree;
  private readonly main: ReActAgent;
  /** The main agent without the refusal of task sessions: for `start`, which asks that itself, once. */
  private readonly bareMain: ReActAgent;
  /** The main agent's scope, as its next run will have it. */
  private readonly mainScope: () => AgentScope;
  private readonly onRun: (sessionId: string, ephemeral: boolean) => (() => void) | undefined;
  private closed = false;
  /** Compactions on demand in flight: `close()` stops them. */
  private readonly compactions = new StoppableWork();
  private readonly disabledTools: readonly string[];

  /** Checks every option now: an unknown or invalid one throws an error naming it. */
  constructor(options: HarnessEngineOptions) {
    checkEngineOptions(options);
    checkBackendOptions(options);
    this.workspace = resolveWorkspace(options.workspace);
    this.runs = new RunRegistry({
      log: options.eventLog ?? options.backend?.eventLog ?? new MemoryEventLog(),
      retentionMs: options.runRetentionMs ?? 10 * 60_000,
      maxRetained: options.maxRetainedRuns ?? 1000,
      maxRetainedBytes: options.maxRetainedRunBytes ?? 64 * 1024 * 1024,
      ...(options.backend ? { shared: options.backend.runs } : {}),
    });
    const tree = (this.tree = buildTree(options, this.workspace, approvalRouter(this.runs, options.approve), this.runs));
    this.agents = tree.agents;
    this.disabledTools = Object.freeze([...(options.disabledTools ?? [])]);
    this.tasks = tree.tasks;
    this.sessions = tree.sessions;
    // Background results go in front of the main agent's next prompt of their conversation.
    const maxResultChars = options.maxResultChars ?? DEFAULT_MAX_RESULT_CHARS;
    // Those an engine stopped before delivering (closed, or its process died) too: their starts are in the history.
    const promptPrefix = (sessionId: string, history: readonly ChatMessage[]): MaybePromise<PromptPrefix> =>
      conversationPrefix(this.tasks, sessionId, history, maxResultChars, this.sessions);
    // A run without a sessionId is over for good when it ends: forget what it left behind
    // (its tasks are noted from its start, see `ephemeralTaskSessions`).
    this.onRun = (sessionId: string, ephemeral: boolean) => (ephemeral ? tree.beginEphemeral(sessionId) : undefined);
    // The main agent's spec is read when each run starts: a `mode: primary` definition added
    // later (or discovered) takes its place from the next run.
    const hooks = { promptPrefix, onRun: this.onRun };
    const fromCode = options.instructions !== undefined;
    this.mainScope = () => {
      // Read as each run starts: a run of `engine.agent()` (this agent) refuses after close() as stream/call/start do.
      this.assertOpen();
      const primary = tree.agents.primary();
      return tree.factory.scopeOf(primary ? tree.factory.primarySpec(tree.main, primary, fromCode) : tree.main, hooks);
    };
    this.bareMain = ReActAgent.ofScope('main', this.mainScope);
    this.main = this.guarded(this.bareMain);
  }

  /**
   * Streams a run of the main agent (cold; unsubscribing aborts it and every foreground
   * child). With a `sessionId`, results of that conversation's finished background tasks
   * are put in front of the prompt, each once: the newest `shownAtOnce(maxResultChars)` (480
   * by default), the older ones at the next prompts.
   */
  stream(prompt: string, options: RunOptions = {}): Observable<AgentEvent> {
    return defer(() => {
      this.assertOpen();
      return this.main.stream(prompt, options);
    });
  }

  /**
   * Starts a run that lives on its own: hot (it runs whether or not anyone watches),
   * registered in {@link HarnessEngine.runs}, every event numbered and kept, so any number of
   * consumers can attach, leave and come back. Without a `sessionId` it gets a new one (kept,
   * so the conversation can go on). `agentName` runs that definition directly. `tools` are
   * offered to the main agent in this run only (an AG-UI client's frontend tools), besides
   * its own; the permission rules gate them like any tool.
   *
   * @throws TypeError for an empty prompt, a `sessionId` that is empty or not well-formed
   *   Unicode (a lone surrogate), or one of `tools` named like a tool of the engine's own
   *   (a built-in, custom, delegation or MCP tool) or whose `parameters` cannot be checked
   *   against (`defineTool`'s checks, naming the tool), or a `sessionId` that is a delegated task's
   *   session (one only a store that answers asynchronously knows, a FileSessionStore's after a
   *   restart, fails the run with that TypeError instead), UnknownAgentError for an unknown agent,
   *   SessionBusyError when another run holds the session, EngineClosedError after `close()`.
   *
   * @example
   * ```ts
   * const run = engine.start('Survey this project');
   * run.events$.subscribe(({ seq, event }) => console.log(seq, event.type));
   * const later = engine.runs.attach(run.runId, { after: 10 }); // from event 11 on
   * console.log((await run.result).text);
   * ```
   */
  start(prompt: string, options: { sessionId?: string; agentName?: string; tokenBudget?: number; tools?: readonly Tool[] } = {}): RunHandle {
    return this.#startRun(prompt, options, undefined);
  }

  /**
   * {@link HarnessEngine.start}, told by `prepareStart` the session id it has already found no
   * task's (`checkedFree`): that id is not asked about again. `undefined` when nothing was asked.
   */
  #startRun(prompt: string, options: StartOptions, checkedFree: string | undefined): RunHandle {
    this.assertOpen();
    if (typeof prompt !== 'string' || prompt.trim() === '') throw new TypeError(`The prompt must be a non-empty string, got ${JSON.stringify(prompt) ?? String(prompt)}`);
    const { agentName = 'main' } = options;
    if (agentName !== 'main' && !this.agents.get(agentName) && agentName !== this.agents.primary()?.name) {
      throw new UnknownAgentError(agentName, this.agents.list().map((a) => a.name));
    }
    if (options.sessionId !== undefined) assertSessionId(options.sessionId);
    // Asked once, here: a `true` refuses before the run is registered (a refused id must leave no
    // failed run behind); a promise (a store that answers later) is awaited by the run, which
    // fails with the refusal before it touches the session.
    const given = options.sessionId;
    const task = given === undefined || given === checkedFree ? false : isTaskSession(given, this.tasks, this.sessions);
    if (task === true) throw taskSessionError(given!);
    const sessionId = options.sessionId ?? newSessionId();
    const runId = `run_${randomUUID()}`;
    if (options.tools?.length && agentName !== 'main') throw new TypeError(`start: tools are offered to the main agent only, not to agent "${agentName}"`);
    // Bare agents: the question is answered (`task`), not asked again by a guarded one.
    const agent = options.tools?.length ? ReActAgent.ofScope('main', scopeWithTools(this.mainScope, options.tools, this.tree.knownTools)) : this.bareAgent(agentName);
    const input = { sessionId, streaming: true, runId, ...(options.tokenBudget !== undefined ? { tokenBudget: options.tokenBudget } : {}) };
    const run$ = task === false ? agent.run$(prompt, input) : unlessTaskSession$(sessionId, () => task, () => agent.run$(prompt, input));
    return this.runs.start(runId, sessionId, agent.name, run$);
  }

  /**
   * {@link HarnessEngine.start} for a caller that can wait (the HTTP routes, the A2A handler): whether
   * `options.sessionId` is a delegated task's session is asked once and the store's answer
   * awaited, so an id only the store knows as a task's (after a restart) rejects with start's
   * TypeError before any run is registered, where `start` can only fail its run. Resolves to
   * this request's start, which asks nothing more: each call is one try of it (a start is tried
   * again while a run that has ended still holds the session).
   *
   * @internal
   */
  async prepareStart(prompt: string, options: StartOptions = {}): Promise<() => RunHandle> {
    const { sessionId } = options;
    if (typeof sessionId !== 'string') return () => this.#startRun(prompt, options, undefined);
    if (await isTaskSession(sessionId, this.tasks, this.sessions)) throw taskSessionError(sessionId);
    // Every try is told this answer, so none asks the tracker or the store again.
    return () => this.#startRun(prompt, options, sessionId);
  }

  /**
   * Checks tools meant for {@link HarnessEngine.start}'s `tools` as `start` does, without
   * starting anything: for a caller that must change nothing when it refuses a request (the
   * AG-UI handler, before it gives up a thread's waiting run for a new turn).
   *
   * @throws TypeError for a tool named like a tool of the engine's own, or whose `parameters`
   *   cannot be checked against.
   */
  checkRunTools(tools: readonly Tool[]): void {
    assertRunTools(tools, this.tree.knownTools);
  }

  /** Runs the main agent to its result; no events are emitted or forwarded. */
  async call(prompt: string, options: RunOptions = {}): Promise<RunResult> {
    this.assertOpen();
    return this.main.call(prompt, options);
  }

  /**
   * The main agent, or a definition run directly as a child of the main agent at depth 1
   * (same tool narrowing and permissions). An unknown name fails the agent's first run with
   * an error listing the available agents; after `close()` every run fails with
   * `EngineClosedError`, as `stream` and `call` do.
   */
  agent(name?: string): ReActAgent {
    const bare = this.bareAgent(name);
    return bare === this.bareMain ? this.main : this.guarded(bare);
  }

  /**
   * A subagent of `definition` the application can still customise (a tool, model settings,
   * steps, instructions) before `build()` makes it runnable: see {@link SubagentBuilder}. It
   * runs like {@link HarnessEngine.agent} runs a registered definition, without registering it.
   *
   * @throws DefinitionError when `definition` is not a valid definition.
   */
  createSubagent(definition: AgentDefinition): SubagentBuilder {
    return new SubagentBuilder(definition, { scopeOf: (valid) => this.childScope(() => valid), disabledTools: this.disabledTools });
  }

  /**
   * Compacts a stored conversation now (docs/sessions.md): the output of every tool result
   * before its last turn is pruned and everything before that turn is summarised by the
   * `compaction` agent with the main agent's model; the whole transcript stays in the
   * store's archive (`sessions.loadArchive`). Resolves to the `Compaction` event it made
   * (counts 0 when there was nothing to compact). `options.signal` stops it as `close()`
   * does (its summary request too, and the session is free at once): the HTTP route aborts
   * it when its client goes away.
   *
   * @throws SessionBusyError when a run is using the session, EngineClosedError after `close()`
   *   (also when `close()` stopped it: the session is left as it was, unless it was already
   *   being replaced), AbortError when `options.signal` stopped it, TypeError for an empty id
   *   or a delegated task's session, Error for a store that cannot replace a session.
   */
  async compact(sessionId: string, options: { readonly signal?: AbortSignal } = {}): Promise<CompactionEvent> {
    this.assertOpen();
    if (typeof sessionId !== 'string' || sessionId === '') throw new TypeError(`compact: the session id must be a non-empty string, got ${JSON.stringify(sessionId)}`);
    // A task's transcript is its parent's to resume: a compaction would rewrite it unasked.
    // Asked here only: the HTTP route answers this refusal 404 (`isTaskSessionRefusal`).
    if (await isTaskSession(sessionId, this.tasks, this.sessions)) throw taskSessionError(sessionId);
    const scope = this.mainScope();
    const given = options?.signal;
    const work = (signal: AbortSignal) => compactStoredSession(scope, sessionId, given ? AbortSignal.any([signal, given]) : signal);
    return this.compactions.run(work, () => new EngineClosedError());
  }

  /** Cancels one running task by id; it ends as a failure result saying so. False if none runs. */
  cancelTask(taskId: string): boolean {
    return this.tasks.cancel(taskId);
  }

  /**
   * Cancels every started run and stops every background task and compaction on demand,
   * waiting until they have settled, then stops every MCP server that was started (their processes have ended when
   * it resolves); afterwards `stream`, `call`, `start` and the runs of `agent()` and
   * `createSubagent()` agents fail. Foreground runs belong to
   * their subscribers: unsubscribe them to stop them.
   */
  async close(): Promise<void> {
    this.closed = true;
    this.runs.cancelAll();
    await Promise.all([this.tasks.close(), this.compactions.stopAll()]);
    // After the runs and tasks, whose calls may still be in the servers: every process ends.
    await this.tree.mcp?.close();
    this.runs.detach();
  }

  /** The agent `agent(name)` answers, without the refusal of task sessions. */
  private bareAgent(name?: string): ReActAgent {
    if (name === undefined || name === 'main' || name === this.tree.agents.primary()?.name) return this.bareMain;
    // Resolved when each run starts: a definition added later counts, an unknown one fails that run.
    return ReActAgent.ofScope(name, () => this.childScope(() => this.tree.runner.usableDefinition(name)));
  }

  /** The scope of a run of a definition as a child of the main agent; refused after `close()`, before the definition is looked up. */
  private childScope(definition: () => AgentDefinition): AgentScope {
    this.assertOpen();
    const { factory, main } = this.tree;
    return factory.scopeOf(factory.directSpec(main, definition()), { promptPrefix: undefined, onRun: this.onRun });
  }

  /** `agent`, refusing runs on a delegated task's session: only its parent resumes it, through the task tool (children run through the delegation runner, not these agents). */
  private guarded(agent: ReActAgent): ReActAgent {
    return refusingTaskSessions(agent, this.tasks, this.sessions);
  }

  private assertOpen(): void {
    if (this.closed) throw new EngineClosedError();
  }
}

/** The options of `HarnessEngine.start`. */
type StartOptions = NonNullable<Parameters<HarnessEngine['start']>[1]>;
