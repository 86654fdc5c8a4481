import type { ChatModel } from '../model/chat-model.js';
import type { ModelSettings } from '../model/model-settings.js';
import type { ApprovalHandler } from '../permission/approval.js';
import type { PermissionPolicy } from '../permission/permission-policy.js';
import type { SessionStore } from '../session/session-store.js';
import type { Tool } from '../tools/tool.js';
import type { ApprovalGrants } from './approval-grants.js';

/** A value, or a function computing it when a run starts (it may be async). */
export type PerRun<T> = T | (() => T | Promise<T>);

/** Options of a {@link ReActAgent}. Only `model` is required. */
export interface ReActAgentOptions {
  /** The agent's name in events: `main` (the default) or a definition's name. */
  readonly name?: string;
  /** The chat model the agent reasons with. */
  readonly model: ChatModel;
  /** The system prompt, or a function building it at the start of each run. */
  readonly instructions?: PerRun<string>;
  /** The tools the model may call, or a function choosing them at the start of each run. */
  readonly tools?: PerRun<readonly Tool[]>;
  /**
   * This agent's model settings (temperature, topP, maxTokens, toolChoice,
   * parallelToolCalls), sent with each of its requests over the model's own defaults.
   */
  readonly settings?: ModelSettings;
  /** ReAct steps per run (default 30); the last one is made without tools. */
  readonly maxSteps?: number;
  /** Where sessions live (default: a private in-memory store). */
  readonly sessions?: SessionStore;
  /** The folder tools are confined to (default `process.cwd()`). */
  readonly workspace?: string;
  /** Permission rules every tool call passes (default: the built-in defaults only). */
  readonly permissions?: PermissionPolicy;
  /** Decides `ask` calls; without one they are rejected. */
  readonly approve?: ApprovalHandler;
  /** "Always" approvals, remembered per conversation; share one across a delegation tree. */
  readonly grants?: ApprovalGrants;
  /** A tool call that takes longer fails with a timeout result (default 10 minutes); a tool's own `timeoutMs` wins. */
  readonly toolTimeoutMs?: number;
  /** Set on delegated agents: the task this agent runs. */
  readonly taskId?: string;
  /** Set on background tasks: nobody watches, so approvals fail closed. */
  readonly background?: boolean;
  /** The conversation a delegated agent serves (default: each run's own session). */
  readonly rootSessionId?: string;
  /**
   * Called once per run with its session id, after the session has loaded and just before
   * the prompt is saved; a non-empty result is put in front of the prompt (a blank line
   * between) in the message the model sees and the session keeps. `RunStart.prompt` stays
   * the prompt as given. The engine delivers background results this way: taken only when
   * they are about to be saved, so a run stopped before that point leaves them for the next.
   */
  readonly promptPrefix?: (sessionId: string) => string;
  /**
   * Called once when a run is over (ended, failed or unsubscribed), with its session id and
   * whether the run was ephemeral (started without a `sessionId`: nothing of it was stored).
   * The engine forgets an ephemeral run's approvals and undelivered results this way.
   */
  readonly onRunEnd?: (sessionId: string, ephemeral: boolean) => void;
}

/**
 * Options resolved when the agent's first run starts, for agents whose definition loads
 * lazily (e.g. `engine.agent(name)` before the definitions are read). A failed resolution
 * fails that run and is tried again by the next.
 */
export interface LazyAgentOptions {
  /** The agent's name, known before its options load. */
  readonly name: string;
  /** Loads the options at the agent's first run; after a failure, the next run calls it again. */
  readonly load: () => Promise<ReActAgentOptions>;
}
