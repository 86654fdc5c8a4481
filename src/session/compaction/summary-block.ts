/** The first words of the message that carries a summary. */
const SUMMARY_HEADING = '[Summary of the earlier conversation';
const HEADING_TAIL = ' messages, compacted to fit the context window; the full transcript is archived]\n';
const SUMMARY_END = '[End of summary]';
/** What a model's summary says in place of the end marker: it cannot end its block early. */
const QUOTED_END = '[End of summary (quoted)]';
/** The line in front of the prompt a cut inside a turn carries. */
export const REQUEST = '[The request being worked on]\n';
/** The exact heading line {@link summaryBlock} writes: a user's text that only starts like it is not a summary. */
const HEADING_LINE = /^\[Summary of the earlier conversation: [1-9]\d* messages, compacted to fit the context window; the full transcript is archived\]\n/;

/**
 * The block that stands for the `count` messages a summary replaced. An end marker in the
 * model's summary is quoted, so the block's own end is the first end marker after its heading
 * and no summary can end it early (or make a request of its own seem to follow it); a summary
 * without one is written as it always was, so sessions stored before read the same.
 */
export function summaryBlock(count: number, summary: string): string {
  const text = summary.trim().replaceAll(SUMMARY_END, QUOTED_END);
  return `${SUMMARY_HEADING}: ${count}${HEADING_TAIL}${text}\n${SUMMARY_END}`;
}

/**
 * The message that carries a summary `block` and the user's `text` after it. `carried` is
 * the prompt a cut inside a turn brings along, always marked; a turn's own message (`carried`
 * false) is marked only when it starts with the mark itself, which reading would otherwise
 * take away: {@link promptOf} gives back `text` whole either way.
 */
export function blockWithText(block: string, text: string, carried: boolean): string {
  return carried || text.startsWith(REQUEST) ? `${block}\n\n${REQUEST}${text}` : `${block}\n\n${text}`;
}

/**
 * A user message's prompt without a summary block in front of it (that summary is summarised
 * again). Only a block {@link summaryBlock} wrote counts: its exact heading line, then up to
 * the first end marker that ends the content or a paragraph (a marker line a summary stored
 * before markers were quoted holds is passed over); anything else (a summary pasted from
 * elsewhere, a log with an end marker in it) is the user's text, kept whole.
 */
export function promptOf(content: string): string {
  const heading = HEADING_LINE.exec(content);
  if (heading === null) return content;
  // The heading line's own newline may be the one in front of the marker (an empty summary).
  for (let end = content.indexOf(`\n${SUMMARY_END}`, heading[0].length - 1); end >= 0; end = content.indexOf(`\n${SUMMARY_END}`, end + 1)) {
    const after = end + 1 + SUMMARY_END.length;
    if (after === content.length) return '';
    if (!content.startsWith('\n\n', after)) continue;
    const rest = content.slice(after + 2);
    return rest.startsWith(REQUEST) ? rest.slice(REQUEST.length) : rest;
  }
  return content;
}
