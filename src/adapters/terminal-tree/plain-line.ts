import type { AgentEvent, TaskFrame } from '../../events/index.js';
import { unwrapEvent } from '../../events/index.js';
import { isWellFormedEvent } from '../../events/guards.js';
import { innerType } from './inner-type.js';
import { formatDuration } from './render-tree.js';
import { fitMarked, fitOneLine } from './fit-line.js';
import { stripControls } from './text-line.js';
import { shownTreeName, toolLabel } from './tool-label.js';

const DETAIL_COLUMNS = 120;

/**
 * Describes a notable event as one plain log line (no colour, no escape sequences), or
 * `undefined` for the rest. Notable: a task started or ended, a tool started or ended, an
 * approval asked or decided, a task cancelled, a warning, a compaction, and the streamed run's own end,
 * whose line is followed by the whole error (when it failed) and the final answer. Lines
 * start with who did it: `[main]`, `[explore#2]`, `[general#1 > explore#1]`. Details longer
 * than 120 columns are cut and end in `…`. An approval's line shows the call's main argument
 * and the reason with every invisible character marked (`<U+202E>`), as the approval
 * question does: a human may act on it. An agent's or a tool's name is marked so on every
 * line, escape sequences included (`[evil<U+001B>]8;;x<U+0007>#1]`), and cut to 64 columns.
 * An event without the fields its type promises (read back from a file or the network)
 * gives `undefined`, as does any text field's control character (stripped, a warning's code
 * included).
 *
 * @example
 * ```ts
 * events$.subscribe((e) => { const line = plainLine(e); if (line) console.log(line); });
 * ```
 */
export function plainLine(event: AgentEvent): string | undefined {
  // Fields of the wrong kind (an event read back from a file or the network) would throw below.
  if (!isWellFormedEvent(event)) return undefined;
  // Deltas are most of a run and never a line: leave before unwrapping or naming anyone.
  if (innerType(event) === 'ReasonDelta') return undefined;
  const { event: inner, path } = unwrapEvent(event);
  const frame = path[path.length - 1];
  // Names marked as a tool's line marks them: an escape sequence in one shows on both lines or on neither.
  const who = (): string => `[${path.length === 0 ? shownTreeName(inner.agentName) : taskPath(path)}]`;
  switch (inner.type) {
    case 'RunStart':
      return frame === undefined ? undefined : `${who()} task started: ${short(frame.taskDescription)}`;
    case 'ToolCallStart':
      return `${who()} tool ${toolLabel(inner.toolName, inner.args)} started`;
    case 'ToolCallEnd':
      return inner.error === undefined
        ? `${who()} tool ${shownTreeName(inner.toolName)} done (${formatDuration(inner.durationMs)})`
        : `${who()} tool ${shownTreeName(inner.toolName)} failed: ${short(inner.error)}`;
    case 'HITLPending':
      return `${who()} approval needed for ${toolLabel(inner.toolName, inner.args, DETAIL_COLUMNS)}: ${fitMarked(inner.reason, DETAIL_COLUMNS)}`;
    case 'HITLDecided':
      return `${who()} ${shownTreeName(inner.toolName)} ${inner.decision === 'approve' ? 'approved' : 'rejected'}${inner.comment ? `: ${short(inner.comment)}` : ''}`;
    case 'RunEnd': {
      const meta = `(${formatDuration(inner.metrics.durationMs)}, ${inner.metrics.totalTokens.toLocaleString('en-US')} tok)`;
      const outcome = inner.abnormal ? `failed: ${short(inner.error ?? 'abnormal end')} ${meta}` : `done ${meta}`;
      if (frame !== undefined) return `${who()} task ${outcome}`;
      // The run's own failure is printed whole, once: a server's error often says what is
      // wrong only at its end (a template error), which a 120-column cut would lose.
      const own = inner.abnormal ? `failed: ${stripControls(inner.error ?? 'abnormal end').trimEnd()} ${meta}` : `done ${meta}`;
      const answer = stripControls(inner.text).trimEnd();
      return answer === '' ? `${who()} run ${own}` : `${who()} run ${own}, final answer:\n${answer}`;
    }
    case 'RunCancelled':
      return `${who()} task cancelled: ${short(inner.reason)}`;
    case 'Warning':
      return `${who()} warning (${short(inner.code)}): ${short(inner.message)}`;
    case 'Compaction': {
      const tokens = (n: number): string => n.toLocaleString('en-US');
      const what = [`${inner.prunedToolResults} tool output(s) pruned`, `${inner.summarisedMessages} message(s) summarised`].join(', ');
      return `${who()} context compacted (${short(inner.reason)}): ${tokens(inner.tokensBefore)} → ${tokens(inner.tokensAfter)} tokens of ${tokens(inner.contextWindow)} (${what})`;
    }
    default:
      return undefined;
  }
}

function taskPath(path: readonly TaskFrame[]): string {
  return path.map((f) => `${shownTreeName(f.taskAgentName)}#${f.taskIndex}`).join(' > ');
}

/** A detail cut to 120 columns: only that start is marked (an unknown tool's error quotes its name, megabytes of it if the model likes). */
function short(text: string): string {
  return fitOneLine(text, DETAIL_COLUMNS);
}
