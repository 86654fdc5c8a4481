import type { ChatModel, ToolSpec } from '../model/chat-model.js';
import type { ModelSettings } from '../model/model-settings.js';
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
  /** The agent's own model settings, sent with each request (absent: the model's defaults). */
  readonly modelSettings: ModelSettings | undefined;
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

/** What a run needs from its agent besides the settings; resolved when the run starts. */
export interface RunSetup {
  readonly instructions: () => string | Promise<string>;
  readonly tools: () => readonly Tool[] | Promise<readonly Tool[]>;
  /** Text to put in front of the prompt, asked for just before the prompt is saved. */
  readonly promptPrefix: ((sessionId: string) => string) | undefined;
  /** Called once when a run's stream is torn down (ended, failed or unsubscribed). */
  readonly onRunEnd: ((sessionId: string, ephemeral: boolean) => void) | undefined;
}

/** One run's input. */
export interface RunInput {
  readonly prompt: string;
  readonly sessionId: string;
  /** True when the caller gave no session: nothing is loaded or stored, the run stands alone. */
  readonly ephemeral: boolean;
  /** True under `stream()`: deltas are emitted and tools may forward events. */
  readonly streaming: boolean;
}
