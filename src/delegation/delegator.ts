import { randomUUID } from 'node:crypto';
import { catchError, defer, map, type Observable, of, switchMap } from 'rxjs';
import type { ApprovalGrants } from '../agent/approval-grants.js';
import type { ReActAgentOptions } from '../agent/agent-options.js';
import { ReActAgent } from '../agent/react-agent.js';
import type { ChatModel } from '../model/chat-model.js';
import type { ApprovalHandler } from '../permission/approval.js';
import type { AgentDefinition } from '../subagent/agent-definition.js';
import type { AgentManager } from '../subagent/agent-manager.js';
import { DELEGATION_TOOL_NAMES, isDelegationTool } from '../subagent/delegation-tool-names.js';
import { narrowTools } from '../subagent/narrow-tools.js';
import type { SessionStore } from '../session/session-store.js';
import type { Tool, ToolContext } from '../tools/tool.js';
import { agentList, delegationInstructions, environmentFacts } from './delegation-prompts.js';
import type { AgentSpec, Delegation, TaskRequest } from './delegation-types.js';
import { createGenerateTool } from './generate-tool.js';
import { createMultitaskTool } from './multitask-tool.js';
import { checkResumable } from './check-resumable.js';
import { announceRefusal } from './announce-refusal.js';
import { launchBackground, runChild$, type ChildRun } from './run-child.js';
import { truncate, type TaskResultFields } from './task-result-format.js';
import { createTaskTool } from './task-tool.js';
import type { TaskTracker } from './task-tracker.js';

/** Engine-wide parts every agent of the tree shares. */
export interface DelegatorOptions {
  readonly agents: AgentManager;
  /** Every non-delegation tool, by name (built-ins and custom tools, minus disabled ones). */
  readonly toolbox: ReadonlyMap<string, Tool>;
  readonly models: Readonly<Record<string, ChatModel>>;
  readonly sessions: SessionStore;
  readonly workspace: string;
  readonly approve: ApprovalHandler | undefined;
  readonly grants: ApprovalGrants;
  readonly toolTimeoutMs: number | undefined;
  readonly maxDepth: number;
  readonly poolSize: number;
  /** The most tasks one `multitask` call may hold. */
  readonly maxItems: number;
  readonly maxResultChars: number;
  readonly disabledTools: readonly string[];
  readonly tracker: TaskTracker;
}

/**
 * Builds the agents of a delegation tree from their specs and runs delegated tasks: it
 * resolves the definition, narrows the child's tools, picks its model and permissions,
 * and runs it through {@link runChild$}.
 */
export class Delegator implements Delegation {
  readonly maxDepth: number;
  readonly poolSize: number;
  readonly maxItems: number;

  constructor(private readonly o: DelegatorOptions) {
    this.maxDepth = o.maxDepth;
    this.poolSize = o.poolSize;
    this.maxItems = o.maxItems;
  }

  visibleAgents(): readonly AgentDefinition[] {
    return this.o.agents.listSync();
  }

  callableAgentNames(parent: AgentSpec): readonly string[] {
    return this.o.agents
      .enabledSync()
      .filter((agent) => parent.policy.evaluate('task', agent.name).action !== 'deny')
      .map((agent) => agent.name);
  }

  /** A ReActAgent for a spec. */
  build(spec: AgentSpec): ReActAgent {
    return new ReActAgent(this.agentOptions(spec));
  }

  /** The options of a spec's agent: delegation tools bound to the spec, others from the toolbox. */
  agentOptions(spec: AgentSpec): ReActAgentOptions {
    const o = this.o;
    const delegates = spec.toolNames.some(isDelegationTool);
    const base = spec.toolNames.filter((n) => !isDelegationTool(n)).map((n) => o.toolbox.get(n)!);
    const role = `${spec.instructions}\n\n${environmentFacts(o.workspace)}`;
    return {
      name: spec.name,
      model: spec.model,
      maxSteps: spec.maxSteps,
      ...(spec.settings ? { settings: spec.settings } : {}),
      sessions: o.sessions,
      workspace: o.workspace,
      permissions: spec.policy,
      approve: o.approve,
      grants: o.grants,
      toolTimeoutMs: o.toolTimeoutMs,
      taskId: spec.taskId,
      background: spec.background,
      rootSessionId: spec.rootSessionId,
      // The agent list is read when each run starts (the delegation tools read it again at
      // every step). Kept async although the list is synchronous: a delegating run has always
      // gone on a microtask after its RunStart, and with a synchronous model (ScriptedModel)
      // consumers see that timing (e.g. the first `next()` of an async iterator).
      instructions: delegates ? async () => `${role}\n\n${delegationInstructions(this.visibleAgents(), o.poolSize)}` : role,
      tools: delegates ? async () => [...base, ...this.delegationTools(spec)] : base,
    };
  }

  /** The spec of a child of `parent` running `definition`; throws when its model is unknown. */
  childSpec(parent: AgentSpec, definition: AgentDefinition, ids: { taskId?: string; rootSessionId?: string; background?: boolean }): AgentSpec {
    const depth = parent.depth + 1;
    // Own keys only: `model: constructor` must not find Object.prototype.constructor.
    const named = definition.model;
    const model = named === undefined ? parent.model : Object.hasOwn(this.o.models, named) ? this.o.models[named] : undefined;
    if (!model) {
      const known = Object.keys(this.o.models).join(', ') || 'none';
      throw new Error(`agent "${definition.name}" asks for model "${definition.model}", which the engine does not have (models: ${known})`);
    }
    const toolNames = narrowTools({
      parentTools: parent.toolNames,
      tools: definition.tools,
      disallowedTools: definition.disallowedTools,
      disabledTools: this.o.disabledTools,
      canDelegate: depth < this.o.maxDepth,
    });
    return {
      name: definition.name,
      depth,
      model,
      instructions: definition.systemPrompt,
      toolNames,
      // A workspace definition is untrusted input: its rules only narrow unless the engine trusts it.
      policy: parent.policy.child(definition.permissionRules, { narrowOnly: !this.o.agents.mayLoosen(definition) }),
      maxSteps: definition.maxSteps ?? parent.maxSteps,
      // The child's own settings only: a parent's never leak into its children.
      ...(definition.settings ? { settings: definition.settings } : {}),
      // A child of a background task is unwatched too: its approvals must fail closed as well.
      background: parent.background || (ids.background ?? false),
      ...(ids.taskId ? { taskId: ids.taskId } : {}),
      ...(ids.rootSessionId ? { rootSessionId: ids.rootSessionId } : {}),
    };
  }

  runTask(parent: AgentSpec, request: TaskRequest, context: ToolContext): Observable<TaskResultFields> {
    const fields = { description: request.description, agentName: request.agentName };
    // Minted first, so that a task refused before it starts still has an id of its own.
    const taskId = request.resumeTaskId ?? `task_${randomUUID()}`;
    return defer(() => this.prepare(parent, request, context, taskId)).pipe(
      switchMap((child) =>
        (request.background ? of(launchBackground(child)) : runChild$(child)).pipe(
          map((outcome): TaskResultFields => ({ ...fields, taskId, status: outcome.status, content: truncate(outcome.content, this.o.maxResultChars) })),
        ),
      ),
      // Only a task that never started gets here (a child's own failure is an outcome).
      catchError((e: unknown) => {
        const why = e instanceof Error ? e.message : String(e);
        announceRefusal(context, request, taskId, why);
        return of<TaskResultFields>({ ...fields, taskId, status: 'failure', content: `ERROR: ${why}` });
      }),
    );
  }

  /** Resolves the agent and checks the task id (new, or a resumable earlier one) and builds the child. */
  private async prepare(parent: AgentSpec, request: TaskRequest, context: ToolContext, taskId: string): Promise<ChildRun> {
    if (request.multitask) checkDelegationRule(parent, request.agentName);
    const definition = await this.usableDefinition(request.agentName);
    const owner = context.rootSessionId;
    if (request.resumeTaskId) await checkResumable(taskId, request.agentName, owner, this.o.tracker, this.o.sessions);
    else await this.o.sessions.saveTaskInfo?.({ taskId, agentName: definition.name, description: request.description, ownerSessionId: owner });
    const spec = this.childSpec(parent, definition, { taskId, rootSessionId: owner, background: request.background });
    return {
      agent: this.build(spec),
      prompt: request.prompt,
      taskId,
      index: request.index,
      description: request.description,
      multitask: request.multitask,
      parent: context,
      tracker: this.o.tracker,
    };
  }

  /** The named definition if it exists and is enabled; otherwise an error listing the visible agents. */
  async usableDefinition(name: string): Promise<AgentDefinition> {
    const definition = await this.o.agents.get(name);
    if (definition?.enabled) return definition;
    const visible = agentList(this.visibleAgents()).replaceAll('\n', '; ');
    const why = definition ? `agent "${name}" is disabled` : `unknown agent "${name}"`;
    throw new Error(`${why}. Available agents: ${visible}`);
  }

  private delegationTools(spec: AgentSpec): Tool[] {
    const tools: Tool[] = [];
    if (spec.toolNames.includes('task')) tools.push(createTaskTool(spec, this));
    if (spec.toolNames.includes('multitask')) tools.push(createMultitaskTool(spec, this));
    if (spec.toolNames.includes('generate')) {
      const knownTools = [...this.o.toolbox.keys(), ...DELEGATION_TOOL_NAMES];
      tools.push(createGenerateTool({ agents: this.o.agents, knownTools, workspace: this.o.workspace }));
    }
    return tools;
  }
}

/**
 * `task` rules (subject: the agent name) hold for each entry of a `multitask` too, which has
 * no single subject to check at its own gate. An entry nobody can approve here (`ask`) fails
 * closed, pointing at `task`, whose call does ask.
 */
function checkDelegationRule(parent: AgentSpec, agentName: string): void {
  const decision = parent.policy.evaluate('task', agentName);
  if (decision.action === 'deny') throw new Error(`delegating to "${agentName}" is denied: ${decision.reason}`);
  if (decision.action === 'ask') {
    throw new Error(`delegating to "${agentName}" needs approval (${decision.reason}); use the task tool for it, which asks`);
  }
}
