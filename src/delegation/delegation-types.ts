import type { Observable } from 'rxjs';
import type { TaskWiring } from '../agent/agent-scope.js';
import type { ChatModel } from '../model/chat-model.js';
import type { ModelSettings } from '../model/model-settings.js';
import type { ApprovalHandler } from '../permission/approval.js';
import type { PermissionPolicy } from '../permission/permission-policy.js';
import type { AgentDefinition } from '../subagent/agent-definition.js';
import type { ToolNarrowing } from '../subagent/narrow-tools.js';
import type { ToolContext } from '../tools/tool.js';
import type { TaskOutcome } from './task-result-format.js';
import type { TaskTracker } from './task-tracker.js';
import type { TaskResultFields } from './task-result-format.js';

/** One agent's place in a delegation tree, before it is built (tools by name, not yet objects). */
export interface AgentSpec {
  readonly name: string;
  /** 0 for the main agent, parent's depth + 1 for a child. */
  readonly depth: number;
  readonly model: ChatModel;
  /** The agent's own model settings (a definition's), over its model's defaults. */
  readonly settings?: ModelSettings;
  /** The role prompt: the main prompt or a definition's body. */
  readonly instructions: string;
  /** Every tool the agent holds, delegation tools included. */
  readonly toolNames: readonly string[];
  /**
   * How the agent's MCP tools are chosen when its run starts, for a spec made before their
   * names are known (the main agent's, a primary definition's, a definition run directly):
   * the narrowing of each agent from the engine down, applied to the names the servers offer
   * then. Absent: `toolNames` names its MCP tools already (or the engine has no servers).
   */
  readonly mcpNarrowing?: readonly ToolNarrowing[];
  readonly policy: PermissionPolicy;
  readonly maxSteps: number;
  /** The agent's own token budget (a definition's; the engine's for the main agent); absent: none of its own. */
  readonly tokenBudget?: number;
  /** Set for a delegated agent: its task and the conversation it serves. */
  readonly task?: TaskWiring;
  /**
   * How long this agent's approvals and its children's wait, over the tree's own
   * `approvalTimeoutMs`: a task run on a worker carries its engine's, for its whole subtree.
   */
  readonly approvalTimeoutMs?: number;
  /**
   * Who answers this agent's approvals and its children's, over the tree's own `approve`: a
   * task run on a worker carries a handler bound to its job, for its whole subtree (a
   * grandchild's question goes to the engine following that job, never to a sibling's).
   */
  readonly approve?: ApprovalHandler;
}

/** One task the model asked for. */
export interface TaskRequest {
  readonly agentName: string;
  readonly prompt: string;
  readonly description: string;
  /** The multitask `index` (1 for `task`). */
  readonly index: number;
  readonly multitask: boolean;
  readonly background?: boolean;
  /** Continue this earlier task's session instead of starting a new one. */
  readonly resumeTaskId?: string;
}

/** What the delegation tools need from the engine. */
export interface Delegation {
  readonly maxDepth: number;
  /** Children of one `multitask` running at once; 0 = no limit. */
  readonly poolSize: number;
  /** The most tasks one `multitask` call may hold. */
  readonly maxItems: number;
  /** The most characters of one task's content its result keeps (`maxResultChars`). */
  readonly maxResultChars: number;
  /** The agents the tool descriptions list now (hidden and disabled left out). */
  visibleAgents(): readonly AgentDefinition[];
  /** The names `parent` may give to `task` now: every enabled agent (hidden too) its rules do not deny. */
  callableAgentNames(parent: AgentSpec): readonly string[];
  /**
   * Runs one task to its result. While the parent is streamed, the child's events are
   * wrapped and forwarded through `context.emit`. Never errors: failures are results. With
   * `pool` (a `multitask` call's), the child starts when the pool has a slot for it. Its
   * content is cut at {@link Delegation.maxResultChars}; a `multitask` entry's has no
   * marker yet (`omitted` says how much went): the call cuts its entries together
   * (`shareResultBudget`).
   */
  runTask(parent: AgentSpec, request: TaskRequest, context: ToolContext, pool?: TaskPool): Observable<TaskResultFields>;
}

/** What a {@link TaskPool} knows of a task that may have to wait for a slot. */
export interface PooledTask {
  readonly taskId: string;
  readonly agentName: string;
  /** Shown only if the task never runs (cancelled while it waits): cut at `maxResultChars`. */
  readonly prompt: string;
  readonly description: string;
  /** The multitask `index`. */
  readonly index: number;
  readonly multitask: boolean;
  /** The delegating call's context: where a queued task is announced. */
  readonly parent: ToolContext;
  readonly tracker: TaskTracker;
}

/**
 * The pool of one `multitask` call (`createTaskPool`): `size` children run at once while the
 * others wait in order. One per call, so a child that delegates again never waits for a slot
 * its parent holds.
 */
export interface TaskPool {
  /** Runs `job$` (the task's child run) when a slot is free. */
  run(task: PooledTask, job$: Observable<TaskOutcome>): Observable<TaskOutcome>;
  /** Drops every job still waiting (the call was unsubscribed): none of them will start. */
  clear(): void;
}
