import { asyncScheduler, Observable, type MonoTypeOperatorFunction, type SchedulerLike } from 'rxjs';
import type { AgentEvent } from '../../events/index.js';
import { reduceTree, settleTree } from '../task-tree/reduce-tree.js';
import { createTreeState, type TaskTreeState } from '../task-tree/tree-state.js';
import { plainView, ttyView, type TreeView } from './tree-views.js';
import { errorMessage } from '../../errors/error-message.js';

/** Where {@link liveTree} draws: `process.stdout`, `process.stderr`, or any writable. */
export interface LiveTreeOutput extends NodeJS.WritableStream {
  /** `true` for a terminal: the tree is redrawn in place; otherwise plain lines are written. */
  readonly isTTY?: boolean;
  /** Terminal width (default 80). */
  readonly columns?: number;
  /** Terminal height (default 24): a redraw shows the tree's last `rows` lines, as `log-update` does. */
  readonly rows?: number;
  /** Whether the terminal shows colour (a TTY stream's own check of `NO_COLOR`, `TERM`...). */
  hasColors?(): boolean;
}

/** Options of {@link liveTree}. */
export interface LiveTreeOptions {
  /** Where to draw; its `isTTY` decides between a redrawn tree and plain lines. */
  readonly output: LiveTreeOutput;
  /** Milliseconds between redraws on a terminal (default 80). */
  readonly intervalMs?: number;
  /** Colour on a terminal (default: `output.hasColors()`). Plain lines are never coloured. */
  readonly color?: boolean;
  /** Write the final answer after the tree (default `true`). */
  readonly showResult?: boolean;
  /** Clock and timers (default `asyncScheduler`); tests pass a `TestScheduler`. */
  readonly scheduler?: SchedulerLike;
  /**
   * Asked on a terminal when a call asks for approval (its `HITLPending`): whether the
   * approval handler writes there (a question for the human, a note). Then the tree is drawn
   * once and left in place until no approval waits, so the text below it stays. Default:
   * always. Pass `() => false` when approvals are decided without a word (`rxharness run
   * --yes`): the tree then goes on redrawing in place, leaving no frozen copy per call.
   */
  readonly asksHuman?: () => boolean;
}

/**
 * An operator that passes a run's events through unchanged while showing its task tree. On
 * a terminal (`output.isTTY`) the tree (as `renderTree` draws it) is redrawn in place with
 * `log-update` at most every `intervalMs`, and once more at the end, followed by the final
 * answer. Elsewhere (a pipe, a file, CI logs) it writes one plain line per notable event
 * (as `plainLine` writes them), with no escape codes. The redraw timer stops on completion, error and
 * unsubscribe; on an error the runs still going are shown as failed, on unsubscribe as
 * cancelled. Options are checked when the operator is made.
 *
 * @example
 * ```ts
 * const end = await lastValueFrom(engine.stream(prompt).pipe(liveTree({ output: process.stdout }), terminalRunEnd()));
 * process.exitCode = end.abnormal ? 1 : 0;
 * ```
 */
export function liveTree(options: LiveTreeOptions): MonoTypeOperatorFunction<AgentEvent> {
  // A plain-JavaScript caller of the stream-first form would otherwise fail only at subscribe.
  if (typeof options?.output?.write !== 'function') {
    throw new TypeError('liveTree needs { output }, a writable such as process.stdout; it is an operator: events$.pipe(liveTree({ output }))');
  }
  const intervalMs = options.intervalMs ?? 80;
  if (!Number.isFinite(intervalMs) || intervalMs <= 0) {
    throw new RangeError(`intervalMs must be a positive number of milliseconds, got ${String(intervalMs)}`);
  }
  const scheduler = options.scheduler ?? asyncScheduler;
  return (events$) => new Observable<AgentEvent>((subscriber) => {
    const { output } = options;
    const showResult = options.showResult ?? true;
    const view: TreeView =
      output.isTTY === true
        ? ttyView({ output, intervalMs, scheduler, showResult, color: options.color ?? output.hasColors?.() ?? false, ...(options.asksHuman === undefined ? {} : { asksHuman: options.asksHuman }) })
        : plainView({ output, showResult });
    let state: TaskTreeState = createTreeState();
    let closed = false;
    const close = (reason: string, error?: unknown, status: 'failed' | 'cancelled' = 'failed'): void => {
      closed = true;
      state = settleTree(state, scheduler.now(), reason, status);
      view.close(state, error);
    };
    const subscription = events$.subscribe({
      next: (event) => {
        state = reduceTree(state, event, scheduler.now());
        view.update(state, event);
        subscriber.next(event);
      },
      error: (error: unknown) => {
        close(errorMessage(error), error);
        subscriber.error(error);
      },
      complete: () => {
        close('ended without a result');
        subscriber.complete();
      },
    });
    return () => {
      subscription.unsubscribe();
      if (!closed) close('stopped', undefined, 'cancelled');
    };
  });
}
