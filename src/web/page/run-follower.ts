/**
 * Follows one run with `fromRun`, which resumes after the last event it saw when the
 * connection drops: a reload, a second tab or a lost network all show the same run, and
 * following never starts it again. Each event is folded into the shown state; the run's end
 * (done, failed, cancelled, or lost) settles what still runs and says so in the status line.
 *
 * @module
 */
import { AbortError, fromRun, reduceTree, RunRequestError, settleTree, type Subscription } from './client-imports.js';
import { clipMiddle } from '../../text/clip-middle.js';
import { describeFailure, MESSAGE_CHARS, setState, type PageState } from './page-status.js';
import type { RunDisplay } from './run-display.js';

/** What the page does when a followed run tells something about itself. */
export interface RunHooks {
  /** The run's `RunStart` came: it names the run's conversation (a page opened on `?run=` alone learns it here). */
  started(sessionId: string, runId: string): void;
  /** The run ended, however it did (the conversation list may have changed). */
  ended(): void;
}

/** The run the page follows, if any: at most one at a time. */
export class RunFollower {
  #runId: string | undefined;
  #following: Subscription | undefined;
  #clock: ReturnType<typeof setInterval> | undefined;

  constructor(
    private readonly api: string,
    private readonly display: RunDisplay,
    private readonly hooks: RunHooks,
  ) {}

  /** The run followed last (still going or not); `undefined` when none or after {@link stop}. */
  get runId(): string | undefined {
    return this.#runId;
  }

  /** Follows run `id` from its first event, drawing as it goes. */
  follow(id: string): void {
    this.#following?.unsubscribe();
    this.#runId = id;
    this.display.clear();
    setState('running', 'Running… (closing the page leaves the run going: reopen this address to see it again)');
    this.#following = fromRun(this.api, id).subscribe({
      next: ({ event }) => {
        if (event.type === 'RunStart') this.hooks.started(event.sessionId, id);
        this.display.showSoon(reduceTree(this.display.state, event, Date.now()));
      },
      complete: () => {
        const result = this.display.state.result;
        this.finish(result && !result.abnormal ? 'done' : 'failed', result ? 'Finished.' : 'The run ended without a result.');
      },
      error: (error: unknown) => {
        if (AbortError.isInstance(error)) return this.finish('cancelled', 'Cancelled: the run and its tasks were stopped.');
        if (RunRequestError.isInstance(error) && error.status === 404) return this.finish('failed', `No such run here (it may have been forgotten): ${id}`);
        this.finish('failed', `Lost the run: ${describeFailure(error)}`);
      },
    });
    clearInterval(this.#clock);
    this.#clock = setInterval(() => this.display.queueDraw(), 250); // keeps elapsed times moving between events
  }

  /** Stops listening to the run's events (the run itself goes on); the clock keeps drawing until the next {@link follow}. */
  unsubscribe(): void {
    this.#following?.unsubscribe();
  }

  /** Stops following: no more events, no clock, no run (the run itself goes on on the server). */
  stop(): void {
    this.#following?.unsubscribe();
    clearInterval(this.#clock);
    this.#runId = undefined;
  }

  private finish(name: PageState, given: string): void {
    // once, here: settleTree writes it on every task still going, each row then shows it
    const message = clipMiddle(given, MESSAGE_CHARS);
    clearInterval(this.#clock);
    this.#following = undefined;
    // What still runs ends as the run did: a stopped run's tasks are cancelled, never also failed.
    const run = this.display.state;
    if (name === 'done') this.display.showNow(run);
    else this.display.showNow(name === 'cancelled' ? settleTree(run, Date.now(), 'stopped', 'cancelled') : settleTree(run, Date.now(), message));
    setState(name, message);
    this.hooks.ended();
  }
}
