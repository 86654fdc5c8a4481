import type { ChatModel } from '../model/chat-model.js';
import type { ModelSettings } from '../model/model-settings.js';
import type { ApprovalHandler } from '../permission/approval.js';
import type { PermissionPolicy } from '../permission/permission-policy.js';
import type { SessionStore } from '../session/session-store.js';
import type { Tool } from '../tools/tool.js';

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
  /** A tool call that takes longer fails with a timeout result (default 10 minutes); a tool's own `timeoutMs` wins. */
  readonly toolTimeoutMs?: number;
  /**
   * The most tokens (prompt and completion, as the server counts them) one run may use; when
   * they are spent the run makes one last step without tools and ends abnormally. Default: no limit.
   */
  readonly tokenBudget?: number;
}
