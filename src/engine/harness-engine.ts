import { defer, type Observable } from 'rxjs';
import { ReActAgent } from '../agent/react-agent.js';
import { resolveWorkspace } from '../agent/resolve-workspace.js';
import type { RunOptions, RunResult } from '../agent/run-types.js';
import type { AgentEvent } from '../events/agent-event.js';
import type { SessionStore } from '../session/session-store.js';
import type { AgentManager } from '../subagent/agent-manager.js';
import type { TaskTracker } from '../delegation/task-tracker.js';
import { backgroundResults } from './background-results.js';
import { buildTree, DEFAULT_MAX_RESULT_CHARS, type Tree } from './build-tree.js';
import { EngineClosedError } from './engine-closed-error.js';
import { checkEngineOptions, type HarnessEngineOptions } from './engine-options.js';

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
   * keeping the 10,000 most recently used). Delete a conversation with `sessions.delete?.(id)`.
   */
  readonly sessions: SessionStore;
  private readonly tree: Tree;
  private readonly main: ReActAgent;
  private readonly onRunEnd: (sessionId: string, ephemeral: boolean) => void;
  private closed = false;

  /** Checks every option now: an unknown or invalid one throws an error naming it. */
  constructor(options: HarnessEngineOptions) {
    checkEngineOptions(options);
    this.workspace = resolveWorkspace(options.workspace);
    const tree = (this.tree = buildTree(options, this.workspace));
    this.agents = tree.agents;
    this.tasks = tree.tasks;
    this.sessions = tree.sessions;
    // Background results go in front of the main agent's next prompt of their conversation.
    const maxResultChars = options.maxResultChars ?? DEFAULT_MAX_RESULT_CHARS;
    const promptPrefix = (sessionId: string): string => {
      const finished = this.tasks.takeUndelivered(sessionId);
      return finished.length ? backgroundResults(finished, maxResultChars) : '';
    };
    // A run without a sessionId is over for good when it ends: forget what it left behind.
    this.onRunEnd = (sessionId: string, ephemeral: boolean): void => {
      if (!ephemeral) return;
      tree.grants.clear(sessionId);
      this.tasks.forgetSession(sessionId);
    };
    // The main agent's spec is read when each run starts: a `mode: primary` definition added
    // later (or discovered) takes its place from the next run.
    const hooks = { promptPrefix, onRunEnd: this.onRunEnd };
    const fromCode = options.instructions !== undefined;
    this.main = ReActAgent.ofScope('main', () => {
      const primary = tree.agents.primary();
      return tree.factory.scopeOf(primary ? tree.factory.primarySpec(tree.main, primary, fromCode) : tree.main, hooks);
    });
  }

  /**
   * Streams a run of the main agent (cold; unsubscribing aborts it and every foreground
   * child). With a `sessionId`, results of that conversation's finished background tasks
   * are put in front of the prompt, each once.
   */
  stream(prompt: string, options: RunOptions = {}): Observable<AgentEvent> {
    return defer(() => {
      this.assertOpen();
      return this.main.stream(prompt, options);
    });
  }

  /** Runs the main agent to its result; no events are emitted or forwarded. */
  async call(prompt: string, options: RunOptions = {}): Promise<RunResult> {
    this.assertOpen();
    return this.main.call(prompt, options);
  }

  /**
   * The main agent, or a definition run directly as a child of the main agent at depth 1
   * (same tool narrowing and permissions). An unknown name fails the agent's first run with
   * an error listing the available agents.
   */
  agent(name?: string): ReActAgent {
    if (name === undefined || name === 'main' || name === this.tree.agents.primary()?.name) return this.main;
    const { factory, runner, main } = this.tree;
    // Resolved when each run starts: a definition added later counts, an unknown one fails that run.
    return ReActAgent.ofScope(name, () =>
      factory.scopeOf(factory.childSpec(main, runner.usableDefinition(name)), { promptPrefix: undefined, onRunEnd: this.onRunEnd }),
    );
  }

  /** Cancels one running task by id; it ends as a failure result saying so. False if none runs. */
  cancelTask(taskId: string): boolean {
    return this.tasks.cancel(taskId);
  }

  /**
   * Stops every background task and waits until they have settled; afterwards `stream` and
   * `call` fail. Foreground runs belong to their subscribers: unsubscribe them to stop them.
   */
  async close(): Promise<void> {
    this.closed = true;
    await this.tasks.close();
  }

  private assertOpen(): void {
    if (this.closed) throw new EngineClosedError();
  }
}
