import type { Context } from '@opentelemetry/api';
import type { TokenBudget } from '../model/token-budget.js';
import type { ObservableInput } from 'rxjs';
import type { AgentEvent } from '../events/agent-event.js';
import type { JsonObject } from '../events/json.js';
import type { RunMetrics } from '../events/run-metrics.js';
import type { PermissionAction } from '../permission/permission-rule.js';

/** What a tool knows about the call it is running for. */
export interface ToolContext {
  /** Aborted when the call is cancelled (its run unsubscribed or aborted): stop work then. */
  readonly signal: AbortSignal;
  /** The workspace root: an absolute path with symlinks resolved. */
  readonly workspace: string;
  /** The model's id for this call. */
  readonly callId: string;
  /** The ReAct step making the call. */
  readonly step: number;
  /** The run making the call. */
  readonly runId: string;
  /** That run's session (for a delegated task: the task id). */
  readonly sessionId: string;
  /** The conversation the run belongs to: the main agent's session, shared down the tree. */
  readonly rootSessionId: string;
  /** The run at the top of the tree: the main agent's run (for the main agent itself, `runId`). */
  readonly rootRunId: string;
  /** That run's agent (`main` for the main agent). */
  readonly agentName: string;
  /** Set when the run is a delegated task. */
  readonly taskId?: string;
  /** True in a background task: nobody is watching, approvals fail closed. */
  readonly background: boolean;
  /** True when the run is streamed: events passed to `emit` reach a consumer. */
  readonly streaming: boolean;
  /**
   * Adds an event to the run's stream, between this call's `ToolCallStart` and
   * `ToolCallEnd`. Ignored when nobody streams the run (under `call()`).
   */
  emit(event: AgentEvent): void;
  /**
   * The run's token budget, when one applies: `remaining()` is what the run and everything
   * it delegates may still use. Delegated tasks draw from it.
   */
  readonly budget?: TokenBudget;
  /**
   * The call's trace context (its `execute_tool` span): a task started by the call puts its
   * run's span under it.
   *
   * @internal
   */
  readonly traceContext?: Context;
  /** Adds a child run's usage (and task count) to this run's metrics. */
  addMetrics(metrics: RunMetrics): void;
  /**
   * Judges one path for a tool under the permission rules of the agent making this call,
   * as the gate judges a call's own path: `allow`, `deny` or `ask` (an `ask` that an
   * "always" answer of this conversation covers counts as `allow`). It never asks anyone.
   *
   * `path` is the subject form: relative to the workspace in posix form (`src/a.ts`) when
   * it lies inside, else absolute; an absolute path is `deny` unless an explicit allow rule
   * lets `toolName` reach it. The built-in searches (`grep`, `glob`, `list`) call it for
   * every file they would read or list, so a path rule binds them as it binds the folder
   * they were given: they leave out a denied file silently and a file needing approval with
   * a note.
   *
   * Optional, so a context built by hand (a test, another executor) may leave it out; the
   * built-in tools then judge by the default rules and keep every outside path out.
   *
   * @param toolName - the tool asking; a built-in tool passes its own name.
   * @param path - the path to judge, as described above.
   */
  readonly judgePath?: (toolName: string, path: string) => PermissionAction;
  /**
   * For a tool with `paths`: each of them as the gate judged it before the call ran, resolved
   * (symbolic links followed) and in the subject form above. What the rules allowed, or a
   * human approved, is exactly these. A tool that resolves a path again when it runs (the
   * built-in `write` and `edit` do) compares: a path that now leads elsewhere (a folder
   * swapped for a link meanwhile) was never judged, and is refused unless the rules allow it.
   * Absent for a tool without `paths` and in a context built by hand.
   */
  readonly judgedPaths?: readonly string[];
}

/** A tool's answer: `text` is what the model reads; `error` marks the call as failed. */
export interface ToolResult {
  /** What the model reads as the tool's answer. */
  readonly text: string;
  /** Set when the call failed: `ToolCallEnd.error` carries it. `text` should then say what went wrong. */
  readonly error?: string;
}

/**
 * A tool the model can call. Arguments arrive parsed and already validated, so `execute`
 * can trust their shape: against `parameters` (a JSON schema) for a tool written by hand,
 * or by its own `input` schema for one made by `defineTool`, which also infers `Args`
 * (prefer it: the schema is written once). `Args` must be an object type alias (not an
 * interface), so that every tool fits a `Tool` slot.
 *
 * @example
 * ```ts
 * const clock: Tool<{ zone?: string }> = {
 *   name: 'clock',
 *   description: 'Tells the current time.',
 *   parameters: { type: 'object', properties: { zone: { type: 'string' } } },
 *   execute: ({ zone }) => new Date().toLocaleString('en-GB', { timeZone: zone ?? 'UTC' }),
 * };
 * ```
 */
export interface Tool<Args extends Record<string, unknown> = Record<string, unknown>> {
  /** The tool's name, as the model calls it and as permission rules and definitions' `tools` name it. */
  readonly name: string;
  /** What the tool does and when to use it; the model reads this. */
  readonly description: string;
  /**
   * JSON schema of the arguments object: what the model is offered and what arguments are
   * checked against (a `defineTool` tool derives it from its `input`, which does the check).
   */
  readonly parameters: JsonObject;
  /**
   * The schema the model is offered, when it should say more than `parameters` checks; read
   * at every step. The delegation tools list the agent names that exist now as an `enum`
   * (so a server that constrains calls by schema cannot invent one), while a name outside
   * it still gets their own clear error and fails only its own task.
   */
  readonly modelParameters?: JsonObject;
  /** The argument permission patterns match against: a command, a path, a url. */
  subject?(args: Args): string | undefined;
  /**
   * The workspace paths the call would touch (as given, relative or absolute). Each is checked
   * to stay inside the workspace before `execute` runs.
   */
  paths?(args: Args): readonly string[];
  /**
   * Every subject permission rules judge for one call, when there are several (an MCP tool's
   * path arguments, resolved; see docs/mcp.md): the call is denied when a rule denies any of
   * them, and asks when any needs approval (the approval names those). Used instead of
   * `subject` when present; `workspace` is the agent's, so paths can be said relative to it.
   */
  subjects?(args: Args, workspace: string): readonly string[] | Promise<readonly string[]>;
  /**
   * How long one call may run before it fails with a timeout result, in milliseconds;
   * overrides the agent's `toolTimeoutMs`. `Infinity` for a tool bounded by other means,
   * like the delegation tools (a child run has its own step limit and tool timeouts, and its
   * tool calls start later than the delegating call, so the shared limit would always cut
   * the delegating call first). One longer than a timer holds (2,147,483,647, about 24.8
   * days) sets no timer either; `defineTool` refuses it. One that is no timeout at all (`0`, a
   * negative number, `NaN`, not a number) fails each call, saying so.
   */
  readonly timeoutMs?: number;
  /** Runs the call. Return text, a {@link ToolResult}, or a promise or observable of one. */
  execute(args: Args, context: ToolContext): ToolResult | string | ObservableInput<ToolResult | string>;
}
