/**
 * The text a parent's model reads back from `task` and `multitask`: small XML documents
 * whose free-text fields are escaped, and whose content sits in CDATA.
 *
 * @module
 */
import { headOf } from '../text/whole-chars.js';

/** The outcome of one delegated task. */
export interface TaskOutcome {
  /** `success` or `failure` once the child ended; `running` for a background task just started. */
  readonly status: 'success' | 'failure' | 'running';
  /** The child's final answer, or for a failure `ERROR: ` and the message. */
  readonly content: string;
  /** A failure's message, without the `ERROR: ` the model reads (what `ToolCallEnd.error` shows). */
  readonly error?: string;
}

/**
 * The outcome of a task that failed: the model reads `ERROR: <message>`; `error` keeps the
 * message for the tool call's own `error`. One place builds it, so nothing has to cut the
 * prefix off again.
 *
 * @example
 * ```ts
 * failedTask('unknown agent "ghost"'); // { status: 'failure', content: 'ERROR: unknown agent "ghost"', error: ... }
 * ```
 */
export function failedTask(message: string): TaskOutcome {
  return { status: 'failure', content: `ERROR: ${message}`, error: message };
}

/** The fields of one `<task_result>`. */
export interface TaskResultFields extends TaskOutcome {
  /** The task's short label; escaped in the XML. */
  readonly description: string;
  /** The agent that ran the task; escaped in the XML. */
  readonly agentName: string;
  /** The task's id, which the model passes as `task_id` to resume it. */
  readonly taskId: string;
  /** Only inside `<multitask_results>`. */
  readonly index?: number;
  /**
   * Characters already cut from the end of `content` with no marker written yet: a
   * `multitask` entry holds only its start while it waits for the others, and gets its
   * marker when they are cut together (`shareResultBudget`).
   */
  readonly omitted?: number;
}

/** Marker put where long child output was cut. */
export function truncationMarker(omitted: number): string {
  return `\n[... ${omitted} characters truncated by rxharness ...]`;
}

/** Escapes text for an XML element. */
export function escapeXml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&${{ '&': 'amp', '<': 'lt', '>': 'gt', '"': 'quot', "'": 'apos' }[c]};`);
}

/** What ends a CDATA section, and what {@link cdata} writes for it: 15 characters for 3. */
const CDATA_END = ']]>';
const CDATA_SPLIT = ']]]]><![CDATA[>';
const SPLIT_EXTRA = CDATA_SPLIT.length - CDATA_END.length;

/** Wraps text in CDATA; a `]]>` inside is split across two sections so it cannot end it early. */
export function cdata(text: string): string {
  return `<![CDATA[${text.replaceAll(CDATA_END, CDATA_SPLIT)}]]>`;
}

/**
 * How long `text` is once {@link cdata} has split its `]]>`s (without the section's own
 * start and end): a text of `]]>` is written 5 times as long, so a cut must count this.
 *
 * @example
 * ```ts
 * cdataLength(']]>]]>'); // 30
 * ```
 */
export function cdataLength(text: string): number {
  return text.length + SPLIT_EXTRA * (text.split(CDATA_END).length - 1);
}

/**
 * The longest start of `text` written in at most `max` characters by {@link cdata}, without a
 * half character at its end (a `]]>` that does not fit whole keeps its `]]`).
 *
 * @example
 * ```ts
 * cdataHead(']]>]]>', 20); // ']]>]]' (15 + 2 written)
 * ```
 */
export function cdataHead(text: string, max: number): string {
  let extra = 0; // what the splits kept so far add
  for (let from = 0; ; ) {
    const at = text.indexOf(CDATA_END, from);
    // Before the next `]]>` (and its `]]`), every character is written as itself.
    const plain = at < 0 ? text.length : at + CDATA_END.length - 1;
    if (at < 0 || at + CDATA_SPLIT.length + extra > max) return headOf(text, Math.min(plain, max - extra));
    extra += SPLIT_EXTRA;
    from = at + CDATA_END.length;
  }
}

/**
 * A result's content cut to be written by {@link cdata} in at most `max` characters (its
 * `]]>`s counted as written, 15 each: `cdataLength`), keeping its start and ending with the
 * marker saying how much went. The one cut of what a model reads back from `task` and
 * `multitask` (`shareResultBudget`): cut before the split, a content of `]]>` was written 5
 * times `max`. `omitted`: characters already cut from its end (a `multitask` entry's held
 * start, `heldContent`), counted in the marker, which is then written even if the rest fits.
 *
 * @example
 * ```ts
 * cutResult(']]>'.repeat(50_000), 12_000); // 800 `]]>` (12,000 written) and the marker
 * ```
 */
export function cutResult(content: string, max: number, omitted = 0): string {
  if (omitted === 0 && cdataLength(content) <= max) return content;
  const kept = cdataHead(content, max);
  return kept + truncationMarker(content.length + omitted - kept.length);
}

/** Cuts text longer than `max` characters, keeping the start and saying how much went (for text no CDATA holds: a result's content is cut by {@link cutResult}). */
export function truncate(text: string, max: number): string {
  if (max <= 0 || text.length <= max) return text;
  const kept = headOf(text, max);
  return kept + truncationMarker(text.length - kept.length);
}

/**
 * One `<task_result>` line.
 *
 * @example
 * ```ts
 * formatTaskResult({ description: 'scan', agentName: 'explore', taskId: 't1', status: 'success', content: 'done' });
 * // <task_result><description>scan</description>…<result_content><![CDATA[done]]></result_content></task_result>
 * ```
 */
export function formatTaskResult(r: TaskResultFields): string {
  const index = r.index === undefined ? '' : `<index>${r.index}</index>`;
  return (
    `<task_result>${index}<description>${escapeXml(r.description)}</description>` +
    `<agent_name>${escapeXml(r.agentName)}</agent_name><task_id>${escapeXml(r.taskId)}</task_id>` +
    `<result_status>${r.status}</result_status><result_content>${cdata(r.content)}</result_content></task_result>`
  );
}

/** `<multitask_results>`, one `<task_result>` per line in index order, `</multitask_results>`. */
export function formatMultitaskResults(results: readonly TaskResultFields[]): string {
  const sorted = [...results].sort((a, b) => (a.index ?? 0) - (b.index ?? 0));
  return ['<multitask_results>', ...sorted.map(formatTaskResult), '</multitask_results>'].join('\n');
}
