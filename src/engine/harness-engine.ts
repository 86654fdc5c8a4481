import { defer, type Observable } from 'rxjs';
import { ApprovalGrants } from '../agent/approval-grants.js';
import { ReActAgent } from '../agent/react-agent.js';
import { resolveWorkspace } from '../agent/resolve-workspace.js';
import type { RunOptions, RunResult } from '../agent/run-types.js';
import type { AgentEvent } from '../events/agent-event.js';
import { parsePermissionRules } from '../permission/parse-permission-rules.js';
import { PermissionPolicy } from '../permission/permission-policy.js';
import { MemorySessionStore } from '../session/memory-session-store.js';
import type { SessionStore } from '../session/session-store.js';
import { standardAgentDirs } from '../subagent/agent-dirs.js';
import { AgentManager } from '../subagent/agent-manager.js';
import { DELEGATION_TOOL_NAMES } from '../subagent/delegation-tool-names.js';
import { MAIN_AGENT_PROMPT } from '../delegation/delegation-prompts.js';
import type { AgentSpec } from '../delegation/delegation-types.js';
import { Delegator } from '../delegation/delegator.js';
import { DEFAULT_MULTITASK_MAX_ITEMS } from '../delegation/task-schemas.js';
import { TaskTracker } from '../delegation/task-tracker.js';
import { backgroundResults } from './background-results.js';
import { createBuiltinTools } from '../tools/builtin/index.js';
import type { Tool } from '../tools/tool.js';
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
  private readonly delegator: Delegator;
  private readonly mainSpec: AgentSpec;
  private readonly main: ReActAgent;
  private readonly onRunEnd: (sessionId: string, ephemeral: boolean) => void;
  private closed = false;

  /** Checks every option now: an unknown or invalid one throws an error naming it. */
  constructor(options: HarnessEngineOptions) {
    checkEngineOptions(options);
    this.workspace = resolveWorkspace(options.workspace);
    const rules = parsePermissionRules(options.permissionRules ?? [], 'permissionRules');
    const disabled = options.disabledTools ?? [];
    const toolbox = toolboxOf(options.tools ?? [], disabled);
    const delegates = (options.subagentEnabled ?? true) && (options.maxDepth ?? 1) > 0;
    const delegation = delegates ? DELEGATION_TOOL_NAMES.filter((n) => !disabled.includes(n)) : [];
    this.agents = new AgentManager({
      dirs: standardAgentDirs({ workspace: this.workspace, agentDirs: options.agentDirs, home: options.homeDir }),
      knownTools: [...toolbox.keys(), ...DELEGATION_TOOL_NAMES],
      trustWorkspaceAgents: options.trustWorkspaceAgents,
    });
    this.tasks = new TaskTracker();
    this.sessions = options.sessions ?? new MemorySessionStore();
    const grants = new ApprovalGrants();
    this.delegator = new Delegator({
      agents: this.agents,
      toolbox,
      models: options.models ?? {},
      sessions: this.sessions,
      workspace: this.workspace,
      approve: options.approve,
      grants,
      toolTimeoutMs: options.toolTimeoutMs,
      maxDepth: options.maxDepth ?? 1,
      poolSize: options.multitaskMaxTasks ?? 5,
      maxItems: options.multitaskMaxItems ?? DEFAULT_MULTITASK_MAX_ITEMS,
      maxResultChars: options.maxResultChars ?? 12_000,
      disabledTools: disabled,
      tracker: this.tasks,
    });
    this.mainSpec = {
      name: 'main',
      depth: 0,
      model: options.model,
      instructions: options.instructions ?? MAIN_AGENT_PROMPT,
      toolNames: [...toolbox.keys(), ...delegation],
      policy: new PermissionPolicy({ rules }),
      maxSteps: options.maxSteps ?? 30,
      background: false,
    };
    // Background results go in front of the main agent's next prompt of their conversation.
    const promptPrefix = (sessionId: string): string => {
      const finished = this.tasks.takeUndelivered(sessionId);
      return finished.length ? backgroundResults(finished, options.maxResultChars ?? 12_000) : '';
    };
    // A run without a sessionId is over for good when it ends: forget what it left behind.
    this.onRunEnd = (sessionId: string, ephemeral: boolean): void => {
      if (!ephemeral) return;
      grants.clear(sessionId);
      this.tasks.forgetSession(sessionId);
    };
    this.main = new ReActAgent({ ...this.delegator.agentOptions(this.mainSpec), promptPrefix, onRunEnd: this.onRunEnd });
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
    if (name === undefined || name === 'main') return this.main;
    return new ReActAgent({
      name,
      load: async () => {
        const definition = await this.delegator.usableDefinition(name);
        return { ...this.delegator.agentOptions(this.delegator.childSpec(this.mainSpec, definition, {})), onRunEnd: this.onRunEnd };
      },
    });
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
    if (this.closed) throw new Error('HarnessEngine: the engine is closed; create a new one to run again');
  }
}

/** Built-ins, replaced by custom tools of the same name, minus disabled ones. */
function toolboxOf(custom: readonly Tool[], disabled: readonly string[]): Map<string, Tool> {
  const seen = new Set<string>();
  for (const tool of custom) {
    if (seen.has(tool.name)) throw new TypeError(`HarnessEngine: two tools are named "${tool.name}"`);
    if (DELEGATION_TOOL_NAMES.includes(tool.name)) {
      throw new TypeError(`HarnessEngine: "${tool.name}" is a delegation tool name; name your tool differently`);
    }
    seen.add(tool.name);
  }
  const toolbox = new Map<string, Tool>();
  for (const tool of [...createBuiltinTools(), ...custom]) {
    if (!disabled.includes(tool.name)) toolbox.set(tool.name, tool);
  }
  return toolbox;
}
