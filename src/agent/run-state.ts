import { randomUUID } from 'node:crypto';
import type { RunEndEvent } from '../events/agent-event.js';
import type { RunMetrics } from '../events/run-metrics.js';
import type { ChatMessage } from '../model/chat-message.js';
import type { TokenUsage } from '../model/chat-model.js';
import { endSpan, type Traced } from '../telemetry/spans.js';

/** The mutable state of one run: its ids, the conversation so far, and its counters. */
export class RunState {
  readonly runId: string;
  readonly startedAt = performance.now();
  /** What the next model request sends: system prompt, history, prompt, this run's turns. */
  messages: ChatMessage[] = [];
  steps = 0;
  text = '';
  /**
   * The end of this run's messages handed to the session store: the last one that is not a
   * tool result (the prompt, or the model's last message) and the results after it, in order.
   * That is all `closingMessages` reads to close a turn stopped before its answer; empty while
   * nothing was saved. Earlier messages are not kept: a long turn's memory stays that of one
   * step, not of every result it saved (compaction bounds the rest).
   */
  get saved(): readonly ChatMessage[] {
    return this.#savedTail;
  }
  #savedTail: ChatMessage[] = [];
  /** Set once the closing messages of a turn that did not finish were handed to the store. */
  closed = false;
  /** Set when the run's `RunEnd` is made. */
  ended = false;
  /**
   * The codes of the `Warning`s given at most once a run that this run has given (a
   * compaction's `context-window-too-small` and `context-window-tight`): told once, not at
   * every step that meets the same cause. Kept with the run, so it goes when the run does.
   */
  readonly warnedOnce = new Set<string>();
  /**
   * Tokens of the summary requests (compaction) made during the current step, not yet charged
   * to the budget: the step's answer is charged them with its own (see `run-steps.ts`).
   */
  summaryTokens = 0;
  /**
   * Estimated tokens of the current step's model requests that failed once their reply had
   * begun (see `failedRequestTokens`), not yet charged to the budget: charged with the step.
   */
  unansweredTokens = 0;
  /** The run's span (see telemetry/spans.ts); ended with the run's `RunEnd`, or when the run is torn down without one. */
  trace: Traced | undefined;
  /** The last tool call (tool and arguments) and how many times in a row it came. */
  #lastCall: string | undefined;
  #repeats = 0;
  private promptTokens = 0;
  private completionTokens = 0;
  private totalTokens = 0;
  private tasks = 0;

  constructor(
    readonly agentName: string,
    readonly sessionId: string,
    /** Given when the run's id had to be known before it started (`engine.start()`). */
    runId?: string,
  ) {
    this.runId = runId ?? `run_${randomUUID()}`;
  }

  /** Notes `messages` as handed to the session store (see {@link saved}). */
  noteSaved(messages: readonly ChatMessage[]): void {
    for (const m of messages) {
      // Anything but a tool result starts the tail anew: `closingMessages` reads nothing before it.
      if (m.role !== 'tool') this.#savedTail = [m];
      else this.#savedTail.push(m);
    }
  }

  /** Notes a tool call (its tool and arguments as one key); returns how many times in a row that call has now come. */
  noteCall(key: string): number {
    this.#repeats = key === this.#lastCall ? this.#repeats + 1 : 1;
    this.#lastCall = key;
    return this.#repeats;
  }

  addUsage(usage: TokenUsage | undefined): void {
    if (!usage) return;
    this.promptTokens += usage.promptTokens;
    this.completionTokens += usage.completionTokens;
    this.totalTokens += usage.totalTokens;
  }

  /** Adds a child's metrics (its usage and the tasks below it); not its duration. */
  addMetrics(metrics: RunMetrics): void {
    this.promptTokens += metrics.promptTokens;
    this.completionTokens += metrics.completionTokens;
    this.totalTokens += metrics.totalTokens;
    this.tasks += metrics.tasks;
  }

  metrics(): RunMetrics {
    return {
      promptTokens: this.promptTokens,
      completionTokens: this.completionTokens,
      totalTokens: this.totalTokens,
      durationMs: Math.round(performance.now() - this.startedAt),
      tasks: this.tasks,
    };
  }

  end(error?: string): RunEndEvent {
    this.ended = true;
    const { runId, agentName, text, steps } = this;
    const metrics = this.metrics();
    const span = this.trace?.span;
    this.trace = undefined; // ended once
    if (span) endSpan(span, error, { 'gen_ai.usage.input_tokens': this.promptTokens, 'gen_ai.usage.output_tokens': this.completionTokens, 'rxharness.steps': steps, 'rxharness.tasks': this.tasks });
    // Two literals, not a spread of a base and a tail: V8 adds fields to a spread copy on a slow path (docs/performance.md, stop 42).
    return error === undefined
      ? { type: 'RunEnd', runId, agentName, text, abnormal: false, metrics, steps }
      : { type: 'RunEnd', runId, agentName, text, abnormal: true, error, metrics, steps };
  }

  /** Ends the run's span when the run stops without a `RunEnd` (unsubscribed, or an error it could not turn into one). */
  abandon(): void {
    const span = this.trace?.span;
    this.trace = undefined;
    if (span) endSpan(span, undefined, { 'rxharness.run.stopped': true });
  }
}
