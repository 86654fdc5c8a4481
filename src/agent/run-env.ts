import type { ChatModel, ToolSpec } from '../model/chat-model.js';
import type { ApprovalHandler } from '../permission/approval.js';
import type { PermissionPolicy } from '../permission/permission-policy.js';
import type { SessionStore } from '../session/session-store.js';
import type { Tool } from '../tools/tool.js';
import type { ApprovalGrants } from './approval-grants.js';
import type { RunState } from './run-state.js';

/** The agent's settings with every default applied. */
export interface AgentSettings {
  readonly name: string;
  readonly model: ChatModel;
  readonly maxSteps: number;
  readonly sessions: SessionStore;
  readonly workspace: string;
  readonly permissions: PermissionPolicy;
  readonly approve: ApprovalHandler | undefined;
  readonly grants: ApprovalGrants;
  readonly toolTimeoutMs: number;
  readonly taskId: string | undefined;
  readonly background: boolean;
  readonly rootSessionId: string | undefined;
}

/** Everything the steps of one run share. */
export interface RunEnv {
  readonly settings: AgentSettings;
  readonly run: RunState;
  /** True under `stream()`: deltas and tool events are emitted. */
  readonly streaming: boolean;
  readonly rootSessionId: string;
  readonly tools: ReadonlyMap<string, Tool>;
  /**
   * What the model is offered, read again at every step: a tool's description may change
   * during a run (`task` lists an agent that `generate` has just made).
   */
  toolSpecs(): readonly ToolSpec[];
}
