import type { AgentEvent } from '../events/agent-event.js';

/** One event of a started run, with its place in the run: `seq` counts 1, 2, 3... wrapped child events included. */
export interface SequencedEvent {
  /** The run (the root of its tree) the event belongs to. */
  readonly runId: string;
  /** The event's position in the run, from 1, with no gap. */
  readonly seq: number;
  /** The event as the run emitted it (a child's arrives wrapped in a `TaskWrap`). */
  readonly event: AgentEvent;
}

/** Where a started run stands. */
export type RunState = 'running' | 'done' | 'failed' | 'cancelled';

/** What is known about a started run. */
export interface RunInfo {
  /** The run's id, as in its events. */
  readonly runId: string;
  /** The conversation it belongs to. */
  readonly sessionId: string;
  /** The agent it runs: `main`, or a definition's name. */
  readonly agentName: string;
  /** `running` until its `RunEnd` (`done`, or `failed` when abnormal), an error (`failed`), or `cancel` (`cancelled`). */
  readonly state: RunState;
  /** When it started, in epoch milliseconds. */
  readonly startedAt: number;
  /** When it ended, in epoch milliseconds; absent while running. */
  readonly endedAt?: number;
}

/**
 * An approval waiting in a started run (`engine.runs.pendingApprovals(runId)`): what names
 * it (`approvalId`, unique) and what a human needs to tell it from the others.
 */
export interface PendingApproval {
  /** The approval's unique id, as in its `HITLPending` event: what an answer names. */
  readonly approvalId: string;
  /** The model's id for the call (not unique across tasks). */
  readonly callId: string;
  /** The tool the call would run. */
  readonly toolName: string;
  /** The agent asking (`main`, or a definition's name). */
  readonly agentName: string;
  /** The task asking, when it is a delegated one. */
  readonly taskId?: string;
}

/**
 * How a run's event log ended: after the unwrapped `RunEnd` (`complete`), by `cancel`
 * (`cancelled`: readers error with `AbortError`), or with an error the run could not turn
 * into a `RunEnd` (`failed`: readers error with it).
 */
export type LogEnding = LogComplete | LogCancelled | LogFailed;

/** The log ended after the run's unwrapped `RunEnd`. */
export interface LogComplete {
  /** Marks a complete log. */
  readonly kind: 'complete';
}

/** The run was cancelled; readers error with `AbortError`. */
export interface LogCancelled {
  /** Marks a cancelled run's log. */
  readonly kind: 'cancelled';
  /** Why, for the `AbortError`'s message. */
  readonly reason: string;
}

/**
 * The run failed with an error it could not turn into a `RunEnd`; readers error with an
 * error of the same `name` and `code` (`SessionBusyError.isInstance` holds for it).
 */
export interface LogFailed {
  /** Marks a failed run's log. */
  readonly kind: 'failed';
  /** The error's message. */
  readonly message: string;
  /** The error's `name` (`SessionBusyError`), when it was not a plain `Error`. */
  readonly name?: string;
  /** The error's `code` (`SESSION_BUSY`), when it was an rxharness error. */
  readonly code?: string;
}
