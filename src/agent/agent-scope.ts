import type { Context } from '@opentelemetry/api';
import type { ChatMessage } from '../model/chat-message.js';
import type { ChatModel } from '../model/chat-model.js';
import type { ModelSettings } from '../model/model-settings.js';
import type { ApprovalHandler } from '../permission/approval.js';
import type { PermissionPolicy } from '../permission/permission-policy.js';
import type { SessionStore } from '../session/session-store.js';
import type { Tool } from '../tools/tool.js';
import type { ApprovalGrants } from './approval-grants.js';
import type { TokenBudget } from '../model/token-budget.js';

/**
 * Where a delegated agent sits in its tree: the task it runs and the conversation it serves.
 * Shared by reference from the delegation's spec to the agent's scope to every tool call's
 * context, so a new fact about a task is added here once.
 */
export interface TaskWiring {
  /** The task this agent runs (its session id too). */
  readonly taskId: string;
  /** The conversation (the main agent's session) the whole tree serves. */
  readonly rootSessionId: string;
  /** The run at the top of the tree (the main agent's run): where its approvals are answered. */
  readonly rootRunId: string;
  /** The task as the live tree names it: its agent, `#index` in a multitask, its description (`explore#2 find the tests`). */
  readonly label?: string;
  /** True for a background task and every agent below it: nobody watches, approvals fail closed. */
  readonly background: boolean;
  /**
   * The token budget of the run that delegated the task, which the task draws from (a
   * background task too: the tree's pool is shared by reference, never copied).
   */
  readonly parentBudget?: TokenBudget;
  /** The delegating tool call's trace context: the task's run span goes under it. */
  readonly traceContext?: Context;
}

/** The summariser of an agent's compactions (see `AgentScope.compaction`). */
export interface CompactionSetup {
  /** Its system prompt. */
  readonly prompt: string;
  /** Its model settings (its `maxTokens` caps the summary). */
  readonly settings?: ModelSettings;
  /** Its model, when not the agent's own. */
  readonly model?: ChatModel;
}

/**
 * Everything one agent runs with, every default applied: what a plain `ReActAgent`'s options
 * resolve to, and what the engine builds for each agent of its tree. The loop, the approval
 * gate and every tool call's context read this one object.
 *
 * @internal
 */
export interface AgentScope {
  readonly name: string;
  readonly model: ChatModel;
  /** The agent's own model settings, sent with each request (absent: the model's defaults). */
  readonly modelSettings: ModelSettings | undefined;
  readonly maxSteps: number;
  /** The system prompt, built when each run starts. */
  readonly instructions: () => string | Promise<string>;
  /** The tools, chosen when each run starts. */
  readonly tools: () => readonly Tool[] | Promise<readonly Tool[]>;
  /**
   * What the run should be told about the tools `tools()` just answered (an MCP server that
   * failed to start), asked once right after it: each becomes a `Warning` after `RunStart`.
   */
  readonly toolWarnings?: (tools: readonly Tool[]) => readonly { readonly code: string; readonly message: string }[];
  readonly sessions: SessionStore;
  /** The workspace: absolute, symlinks resolved. */
  readonly workspace: string;
  readonly permissions: PermissionPolicy;
  readonly approve: ApprovalHandler | undefined;
  /** "Always" approvals, keyed by conversation; one instance per tree. */
  readonly grants: ApprovalGrants;
  readonly toolTimeoutMs: number;
  /** How long an approval may wait for its answer before the call is rejected as timed out (absent: for ever). */
  readonly approvalTimeoutMs?: number;
  /** The agent's own token budget for a run and what it delegates (absent: none of its own). */
  readonly tokenBudget: number | undefined;
  /**
   * Makes the pool of a run whose budget has no parent (absent: counted in memory). With a
   * Redis backend, a pool in Redis, which the tree's workers draw from too.
   */
  readonly newBudget?: (limit: number) => TokenBudget;
  /**
   * Who writes the summary when the agent's session is compacted: the `compaction` agent's
   * prompt, settings and model (absent: a short built-in prompt and the agent's own model).
   */
  readonly compaction?: CompactionSetup;
  /** Set for a delegated agent. */
  readonly task: TaskWiring | undefined;
  /**
   * Text to put in front of the prompt (a blank line between), asked for once per run just
   * before the prompt is saved, with the session's history as loaded; `RunStart.prompt` stays
   * as given. The engine hands background results to the next run of their conversation this
   * way. A promise (what it needs is read first) that settles after the run stopped has its
   * prefix's `unsaved` called: what the prefix took is not lost.
   */
  readonly promptPrefix: ((sessionId: string, history: readonly ChatMessage[]) => PromptPrefix | Promise<PromptPrefix>) | undefined;
  /**
   * Called when a run starts, with its session and whether it is ephemeral; what it returns is
   * called once when the run is over (ended, failed or unsubscribed).
   */
  readonly onRun: ((sessionId: string, ephemeral: boolean) => (() => void) | undefined) | undefined;
}

/** What goes in front of a run's prompt, and how to give it back when the prompt is not saved. */
export interface PromptPrefix {
  /** The text ('' for none). */
  readonly text: string;
  /**
   * Called once when saving the prompt failed: what the text was taken from (the
   * conversation's waiting background results) is needed again by its next prompt.
   */
  readonly unsaved: () => void;
}
