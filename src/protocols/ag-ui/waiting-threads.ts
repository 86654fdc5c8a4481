import type { AGUIEvent, Interrupt } from '@ag-ui/core';
import type { RunHandle } from '../../runs/run-registry.js';
import type { AgUiMapper } from './ag-ui-mapper.js';
import type { FrontendCalls } from './frontend-calls.js';

/** One of our runs as AG-UI runs show it, one after another while it waits for the client. */
export interface AgUiRunState {
  /** The run (started with `engine.start`: it goes on between AG-UI runs). */
  readonly run: RunHandle;
  /** Its mapper, kept across AG-UI runs (which messages the client has). */
  readonly mapper: AgUiMapper;
  /** Its calls to the frontend's tools. */
  readonly calls: FrontendCalls;
  /** The names of the frontend's tools. */
  readonly frontendTools: ReadonlySet<string>;
  /** The seq of the last event shown: the next AG-UI run continues after it. */
  after: number;
  /** Approvals shown as interrupts and not answered yet. */
  readonly interrupts: Set<string>;
  /** Events for the start of the next AG-UI run: what became of the previous request's answers (`CUSTOM` `rxharness.ResumeNotApplied`). */
  readonly notes: AGUIEvent[];
  /**
   * Approvals asked (their `HITLPending` shown) but not waiting yet when the last AG-UI run
   * ended waiting for the client: the next AG-UI run, which starts after their events, offers
   * them again (`HeldApprovals`), so each is still asked once it waits.
   */
  readonly held: Interrupt[];
}

/**
 * Runs that wait for their client, by thread: an AG-UI run ended on an interrupt or a
 * frontend tool call, and the run waits for the next request of the thread to answer it. One
 * not continued within `waitMs` is cancelled (it holds its session and a run slot).
 */
export class WaitingThreads {
  readonly #waiting = new Map<string, { readonly state: AgUiRunState; readonly timer: ReturnType<typeof setTimeout> }>();

  constructor(
    private readonly waitMs: number,
    private readonly cancel: (state: AgUiRunState) => void,
  ) {}

  /** How many runs wait now. */
  get size(): number {
    return this.#waiting.size;
  }

  /** Parks a run until its thread's next request (or `waitMs`). */
  park(threadId: string, state: AgUiRunState): void {
    this.take(threadId);
    const timer = setTimeout(() => {
      if (this.#waiting.get(threadId)?.state !== state) return;
      this.#waiting.delete(threadId);
      this.cancel(state);
    }, this.waitMs);
    timer.unref();
    this.#waiting.set(threadId, { state, timer });
  }

  /** The run waiting in the thread, taken out (its timer stopped), if one waits. */
  take(threadId: string): AgUiRunState | undefined {
    const entry = this.#waiting.get(threadId);
    if (entry === undefined) return undefined;
    clearTimeout(entry.timer);
    this.#waiting.delete(threadId);
    return entry.state;
  }
}
