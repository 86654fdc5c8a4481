import type { RunMetrics } from '../events/run-metrics.js';

/** Options of one run (`stream` or `call`). */
export interface RunOptions {
  /** Continue this conversation (the agent sees its earlier turns); default: a new session. */
  readonly sessionId?: string;
  /** Aborting it stops the run; the stream then errors with `AbortError`. */
  readonly signal?: AbortSignal;
  /**
   * The most tokens this run and everything it delegates may use together; it wins over the
   * agent's and the engine's `tokenBudget`. See `docs/delegation.md` (budgets).
   */
  readonly tokenBudget?: number;
}

/** What `call()` resolves with: the run's terminal `RunEnd`, plus its ids. */
export interface RunResult {
  /** The run's id, as in its events. */
  readonly runId: string;
  /** The conversation the run belongs to; pass it to the next run to continue it. */
  readonly sessionId: string;
  /** The final answer (empty when the run failed before answering). */
  readonly text: string;
  /** True when the run ended on a failure it turned into a result (see `error`). */
  readonly abnormal: boolean;
  /** The failure's message when `abnormal`. */
  readonly error?: string;
  /** Usage and timing of the run, every delegated task included. */
  readonly metrics: RunMetrics;
  /** How many ReAct steps the run made. */
  readonly steps: number;
}
