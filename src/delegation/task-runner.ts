import { catchError, concatMap, defer, map, type Observable, of } from 'rxjs';
import { maybeThen$ } from '../agent/maybe.js';
import { errorMessage } from '../errors/error-message.js';
import type { SessionStore } from '../session/session-store.js';
import { newTaskId } from '../session/session-id.js';
import type { AgentDefinition } from '../subagent/agent-definition.js';
import type { TokenBudget } from '../model/token-budget.js';
import type { AgentManager } from '../subagent/agent-manager.js';
import { UnknownAgentError } from '../subagent/unknown-agent-error.js';
import type { ToolContext } from '../tools/tool.js';
import type { TaskWiring } from '../agent/agent-scope.js';
import type { AgentFactory } from './agent-factory.js';
import { a2aLauncher, type RemoteA2AAgent } from './a2a/a2a-launcher.js';
import type { RemoteA2AOptions } from './a2a/remote-a2a-options.js';
import { announceRefusal } from './announce-refusal.js';
import { checkBackgroundRoom, DEFAULT_MAX_BACKGROUND_TASKS } from './background-bound.js';
import { checkResumable$ } from './check-resumable.js';
import { agentList } from './delegation-prompts.js';
import type { AgentSpec, Delegation, PooledTask, TaskPool, TaskRequest } from './delegation-types.js';
import { perAgentList } from './per-agent-list.js';
import { launchBackground, runChild$, type ChildLauncher, type ChildRun } from './run-child.js';
import { cutResult, failedTask, truncate, type TaskOutcome, type TaskResultFields } from './task-result-format.js';
import { heldContent } from './multitask-budget.js';
import { boundedRequest, shownAgentName, shownPrompt, shownTaskId } from './task-labels.js';
import { TaskRefusedError } from './task-refused-error.js';
import type { TaskTracker } from './task-tracker.js';

/** What the task runner needs. */
export interface TaskRunnerOptions {
  readonly factory: AgentFactory;
  readonly agents: AgentManager;
  readonly sessions: SessionStore;
  readonly tracker: TaskTracker;
  readonly maxDepth: number;
  readonly poolSize: number;
  readonly maxItems: number;
  readonly maxResultChars: number;
  /** Background tasks one conversation may have running at once (0: no bound). Default {@link DEFAULT_MAX_BACKGROUND_TASKS}. */
  readonly maxBackgroundTasks?: number;
  /** Where a task's child runs (a worker, through a backend); absent, or `undefined` for a task: in this process. */
  readonly launcher?: (task: TaskWiring) => ChildLauncher | undefined;
  /** How remote A2A agents are reached (credentials, idle timeout): the engine's `a2a` option. */
  readonly a2a?: RemoteA2AOptions;
}

/**
 * Runs delegated tasks: resolves the agent a task names, checks a resume, builds the child
 * through the {@link AgentFactory} and runs it (in the parent's stream, or detached in the
 * background). What the delegation tools call. Synchronous all the way when the session
 * store is, so a whole delegation runs in virtual time.
 */
export class TaskRunner implements Delegation {
  readonly maxDepth: number;
  readonly poolSize: number;
  readonly maxItems: number;
  readonly maxResultChars: number;
  /**
   * The names each spec may give `task`, remade only when the enabled agents change: the
   * `task` and `multitask` schemas read them at every step (twice: the estimate and the
   * request), each a permission decision per agent.
   */
  readonly #callable = new WeakMap<AgentSpec, (agents: readonly AgentDefinition[]) => readonly string[]>();

  constructor(private readonly o: TaskRunnerOptions) {
    this.maxDepth = o.maxDepth;
    this.poolSize = o.poolSize;
    this.maxItems = o.maxItems;
    this.maxResultChars = o.maxResultChars;
  }

  visibleAgents(): readonly AgentDefinition[] {
    return this.o.agents.list();
  }

  callableAgentNames(parent: AgentSpec): readonly string[] {
    let names = this.#callable.get(parent);
    if (names === undefined) {
      // A spec's policy is fixed (its rules are frozen): only the agent list can change the answer.
      const { policy } = parent;
      names = perAgentList((agents) => Object.freeze(agents.filter((agent) => policy.evaluate('task', agent.name).action !== 'deny').map((agent) => agent.name)));
      this.#callable.set(parent, names);
    }
    return names(this.o.agents.enabled());
  }

  runTask(parent: AgentSpec, given: TaskRequest, context: ToolContext, pool?: TaskPool): Observable<TaskResultFields> {
    // Its label goes into every event of the child: a model's megabyte one is cut first.
    const request = boundedRequest(given);
    const fields = { description: request.description, agentName: request.agentName };
    // Minted first, so that a task refused before it starts still has an id of its own.
    const taskId = request.resumeTaskId ?? newTaskId();
    // A multitask's entries get their markers when the call cuts them together (they share one budget).
    // A `task` result is cut as it is written (its `]]>`s split in CDATA), so it fits `maxResultChars` as read.
    const cut = (content: string) => (request.multitask ? heldContent(content, this.maxResultChars) : { content: cutResult(content, this.maxResultChars) });
    const run$ = (child: ChildRun): Observable<TaskResultFields> =>
      (request.background ? of(this.launchBounded(child)) : pool ? pool.run(pooled(child, this.maxResultChars), runChild$(child)) : runChild$(child)).pipe(
        map((outcome): TaskResultFields => ({ ...fields, ...outcome, taskId, ...cut(outcome.content) })),
      );
    return this.prepare$(parent, request, context, taskId, run$).pipe(
      // Only a task that never started gets here (a child's own failure is an outcome).
      catchError((e: unknown) => {
        // Cut like any result (an unknown agent's error lists every visible agent), and so is the
        // error the call and the refusal's events carry.
        const message = errorMessage(e);
        const failed = failedTask(message);
        const why = truncate(message, this.maxResultChars);
        // A name no agent has, an id no task has: anything a model wrote, shown cut like the error shows it.
        const agentName = shownAgentName(request.agentName);
        const shownId = shownTaskId(taskId);
        announceRefusal(context, { ...request, agentName, prompt: shownPrompt(request.prompt, this.maxResultChars) }, shownId, why);
        return of<TaskResultFields>({ ...fields, agentName, ...failed, error: why, taskId: shownId, ...cut(failed.content) });
      }),
    );
  }

  /**
   * Resolves the agent and checks the task id (new, or a resumable earlier one), then builds
   * the child and continues with `then` in the stream's place: no operator between them stays
   * subscribed while the child runs (see `maybeThen$`).
   */
  private prepare$<R>(parent: AgentSpec, request: TaskRequest, context: ToolContext, taskId: string, then: (child: ChildRun) => Observable<R>): Observable<R> {
    const owner = context.rootSessionId;
    return defer(() => {
      if (request.multitask) checkDelegationRule(parent, request.agentName, context);
      // Not started when nothing is left for a request (those in flight counted): its first step would be refused.
      if (context.budget?.spent()) throw new TaskRefusedError(budgetSpent(context.budget));
      // Early, so a reply of thousands builds no child for the refused ones; launchBounded decides.
      if (request.background) this.checkBackgroundRoom(owner);
      const definition = this.usableDefinition(request.agentName);
      const start = (): Observable<R> => {
        const background = (parent.task?.background ?? false) || (request.background ?? false);
        // The tree's pool by reference: a background task, which outlives its parent, draws from it too.
        const budget = context.budget ? { parentBudget: context.budget } : {};
        const trace = context.traceContext ? { traceContext: context.traceContext } : {};
        const label = `${definition.name}${request.multitask ? `#${request.index}` : ''} ${request.description}`.trim();
        const task = { taskId, rootSessionId: owner, rootRunId: context.rootRunId, label, background, ...budget, ...trace };
        const spec = this.o.factory.childSpec(parent, definition, task);
        // A remote A2A agent's task runs there (a2a-launcher.ts); any other where the backend places it, or here.
        const launcher = definition.a2a !== undefined ? a2aLauncher(this.remoteAgent(definition, definition.a2a), this.o.a2a) : this.o.launcher?.(task);
        const child: ChildRun = {
          agent: this.o.factory.build(spec),
          spec,
          ...(launcher ? { launcher } : {}),
          prompt: request.prompt,
          taskId,
          index: request.index,
          description: request.description,
          multitask: request.multitask,
          parent: context,
          tracker: this.o.tracker,
        };
        return then(child);
      };
      // The call id lets a load that repairs this call (its run killed before it answered) name
      // the task. A resume saves it again: only the latest call can be cut unanswered (an earlier
      // one has its result), so the info records that call, and who made it, with its label.
      const info = { taskId, agentName: definition.name, description: request.description, ownerSessionId: owner, parentSessionId: context.sessionId, callId: context.callId };
      const saved$ = (): Observable<R> => maybeThen$(() => this.o.sessions.saveTaskInfo?.(info), start);
      if (request.resumeTaskId) return checkResumable$(taskId, request.agentName, owner, this.o.tracker, this.o.sessions).pipe(concatMap(saved$));
      return saved$();
    });
  }

  /**
   * Starts a background child unless its conversation is at its bound. Checked here, in the
   * same synchronous stretch as the start: calls that passed the early check together (an
   * asynchronous session store) cannot all start.
   */
  private launchBounded(child: ChildRun): TaskOutcome {
    this.checkBackgroundRoom(child.parent.rootSessionId);
    return launchBackground(child);
  }

  private checkBackgroundRoom(sessionId: string): void {
    checkBackgroundRoom(this.o.tracker, sessionId, this.o.maxBackgroundTasks ?? DEFAULT_MAX_BACKGROUND_TASKS);
  }

  /**
   * The remote agent `definition` names. One from the workspace the engine does not trust
   * gets none of the engine's A2A credentials: a cloned repository could otherwise name its
   * own server's card and collect them. The trust rule is the one its permission rules
   * follow ({@link AgentManager.mayLoosen}).
   */
  private remoteAgent(definition: AgentDefinition, cardUrl: string): RemoteA2AAgent {
    if (this.o.agents.mayLoosen(definition)) return { cardUrl };
    return { cardUrl, untrustedFile: definition.file ?? `.rxharness/agents/ (agent "${definition.name}")` };
  }

  /**
   * The named definition if it exists and is enabled.
   *
   * @throws UnknownAgentError listing the visible agents (with their descriptions) otherwise.
   */
  usableDefinition(name: string): AgentDefinition {
    const definition = this.o.agents.get(name);
    if (definition?.enabled) return definition;
    const visible = this.visibleAgents();
    throw new UnknownAgentError(shownAgentName(name), visible.map((a) => a.name), {
      disabled: definition !== undefined,
      listing: agentList(visible).replaceAll('\n', '; '),
    });
  }
}

/**
 * `task` rules (subject: the agent name) hold for each entry of a `multitask` too, which has
 * no single subject to check at its own gate. An entry nobody can approve here (`ask`) fails
 * closed, pointing at `task`, whose call does ask; unless the conversation holds an "always"
 * grant of `task` on that agent (given to such a call), which covers the entry as it would
 * cover the `task` call: else the model would go round in a circle.
 */
function checkDelegationRule(parent: AgentSpec, agentName: string, context: ToolContext): void {
  const decision = parent.policy.evaluate('task', agentName);
  if (decision.action === 'deny') throw new TaskRefusedError(`delegating to "${shownAgentName(agentName)}" is denied: ${decision.reason}`);
  // The context judges a subject by the calling agent's rules (`parent.policy`) and the
  // conversation's grants: an `ask` comes back `allow` only through a grant. Only an `ask` is
  // looked up; a name that reads as an outside path (no agent's can) comes back `deny`: refused.
  if (decision.action === 'ask' && context.judgePath?.('task', agentName) !== 'allow') {
    throw new TaskRefusedError(`delegating to "${shownAgentName(agentName)}" needs approval (${decision.reason}); use the task tool for it, which asks`);
  }
}

/** Why a task is refused when its parent's token budget is spent. */
function budgetSpent(budget: TokenBudget): string {
  const binding = budget.binding();
  const held = Math.max(0, budget.remaining());
  const inFlight = held > 0 ? ` (the ${held} left are held by requests in flight)` : '';
  return `no token budget is left for this task: ${binding.used} of ${binding.limit} tokens are used${inFlight}`;
}

/** What the pool needs of a child: who it is, and where it would be announced (its prompt cut: it is shown only if it never runs). */
function pooled(c: ChildRun, maxResultChars: number): PooledTask {
  const { taskId, description, index, multitask, parent, tracker } = c;
  return { taskId, agentName: c.agent.name, prompt: shownPrompt(c.prompt, maxResultChars), description, index, multitask, parent, tracker };
}
