import { createLogUpdate } from 'log-update';
import { interval, type SchedulerLike, type Subscription } from 'rxjs';
import type { AgentEvent } from '../../events/index.js';
import { innerType } from './inner-type.js';
import { plainLine } from './plain-line.js';
import { renderTree } from './render-tree.js';
import { stripControls } from './text-line.js';
import { waitingApprovalTotal } from '../task-tree/tree-queries.js';
import type { TaskTreeState } from '../task-tree/tree-state.js';

/** How `liveTree` shows the tree: redrawn in place, or as plain lines. */
export interface TreeView {
  /** A new event was folded into `state`. */
  update(state: TaskTreeState, event: AgentEvent): void;
  /** The stream is over (`error` set when it failed); release everything. Called once. */
  close(state: TaskTreeState, error?: unknown): void;
}

/** What a terminal view needs. */
export interface TtyViewOptions {
  readonly output: NodeJS.WritableStream & { readonly isTTY?: boolean; readonly columns?: number; readonly rows?: number };
  readonly intervalMs: number;
  readonly scheduler: SchedulerLike;
  readonly color: boolean;
  readonly showResult: boolean;
  /** Whether the approval asked for now writes to the terminal (a question, a note): only then does the frame stay (default: always). */
  readonly asksHuman?: () => boolean;
}

/**
 * Redraws the tree in place: at once on the first event, then on a timer every
 * `intervalMs` (so a burst of events costs one redraw, and the spinner and clocks move while
 * nothing happens), and a last time on close.
 *
 * While an approval is pending and `asksHuman()` says it writes to the terminal, the tree is
 * drawn once and left in place: whoever asks the human can write the question below it
 * without a redraw erasing it. Redrawing resumes, below, once no approval waits: each
 * decided, or settled by its task's cancel or end (the state says so; a cancelled task sends
 * no `HITLDecided`). An approval decided without a word (`--yes`) leaves no frozen copy.
 *
 * A size of 0 (a pty whose size was never set) is taken as unknown, 80x24: drawn 0 rows
 * high, the tree did not show at all.
 */
export function ttyView(options: TtyViewOptions): TreeView {
  const { scheduler } = options;
  const output = sized(options.output);
  const log = createLogUpdate(output);
  let latest: TaskTreeState | undefined;
  let timer: Subscription | undefined;
  let asking = false; // an approval waits: the frame stays
  const draw = (): void => {
    if (latest?.root === undefined) return;
    // Only what the terminal shows: log-update keeps a frame's last `rows` lines (24 when unknown, as it assumes).
    log(renderTree(latest, { now: scheduler.now(), width: output.columns ?? 80, color: options.color, lastLines: output.rows ?? 24 }));
  };
  const stopTimer = (): void => {
    timer?.unsubscribe();
    timer = undefined;
  };
  return {
    update(state, event) {
      latest = state;
      // Whether an approval waits is read from the state, where a cancel or an end settles
      // its task's calls: the root's count, one number, read when the event may change it.
      const type = innerType(event);
      if (!asking && type === 'HITLPending' && waitingApprovalTotal(state) > 0 && (options.asksHuman?.() ?? true)) {
        asking = true;
        stopTimer();
        draw();
        log.done(); // the frame stays; the next one starts below it
      } else if (asking && SETTLES_APPROVALS.has(type)) {
        asking = waitingApprovalTotal(state) > 0;
      }
      if (timer !== undefined || asking) return;
      draw();
      timer = interval(options.intervalMs, scheduler).subscribe(draw);
    },
    close(state, error) {
      stopTimer();
      latest = state;
      draw();
      log.done();
      const answer = options.showResult ? stripControls(state.result?.text ?? '').trim() : '';
      if (answer !== '') output.write(`\n${answer}\n`);
      if (error !== undefined) output.write(`error: ${errorText(error)}\n`);
    },
  };
}

/**
 * `output` as log-update and the drawing see it: a size of 0 (or none) is unknown, and
 * log-update's own fallbacks apply only to a missing one (its 0 rows draw nothing).
 */
function sized<T extends TtyViewOptions['output']>(output: T): T {
  return new Proxy(output, {
    get(target, key) {
      if (key === 'columns') return target.columns || 80;
      if (key === 'rows') return target.rows || 24;
      const value: unknown = Reflect.get(target, key, target);
      return typeof value === 'function' ? value.bind(target) : value; // a stream's methods run on the stream
    },
  });
}

/** The events (wrapped or not) after which an approval may no longer wait. */
const SETTLES_APPROVALS: ReadonlySet<AgentEvent['type']> = new Set(['HITLDecided', 'RunEnd', 'RunCancelled']);

/** What a plain view needs. */
export interface PlainViewOptions {
  readonly output: NodeJS.WritableStream;
  readonly showResult: boolean;
}

/** Writes one line per notable event; never an escape code. */
export function plainView(options: PlainViewOptions): TreeView {
  const { output } = options;
  return {
    update(_state, event) {
      let line = plainLine(event);
      if (line === undefined) return;
      if (!options.showResult && event.type === 'RunEnd') line = line.split('\n', 1)[0] ?? line;
      output.write(`${line}\n`);
    },
    close(_state, error) {
      if (error !== undefined) output.write(`error: ${errorText(error)}\n`);
    },
  };
}

function errorText(error: unknown): string {
  return stripControls(error instanceof Error ? `${error.name}: ${error.message}` : String(error));
}
