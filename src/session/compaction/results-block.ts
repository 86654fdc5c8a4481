/** The first line of the block of background results the engine puts in front of a prompt (`backgroundResults`). */
export const RESULTS_BLOCK_OPEN = '<background_task_results>';
/** Its last line. */
export const RESULTS_BLOCK_CLOSE = '</background_task_results>';

const ENTRY_OPEN = '<task_result>';
const CONTENT_OPEN = '<result_content><![CDATA[';
// The content's CDATA writes each `]]>` split (`]]]]><![CDATA[>`), so this ends the entry, not its text.
const ENTRY_END = ']]></result_content></task_result>';
const CDATA_END = ']]>';
const CDATA_SPLIT = ']]]]><![CDATA[>';

/** One part of the block: a `<task_result>` (its start, its content as written in CDATA) or a note line, in order. */
export type BlockPart = { readonly head: string; readonly body: string } | { readonly line: string };

/** The block at the start of `content`, read into its parts, and what follows it; `undefined` when it is not one the engine writes. */
export function readBlock(content: string): { parts: BlockPart[]; rest: string } | undefined {
  if (!content.startsWith(`${RESULTS_BLOCK_OPEN}\n`)) return undefined;
  const parts: BlockPart[] = [];
  let at = RESULTS_BLOCK_OPEN.length + 1;
  while (!content.startsWith(RESULTS_BLOCK_CLOSE, at)) {
    let end: number;
    if (content.startsWith(ENTRY_OPEN, at)) {
      const start = content.indexOf(CONTENT_OPEN, at);
      const stop = start < 0 ? -1 : content.indexOf(ENTRY_END, start);
      if (stop < 0) return undefined;
      parts.push({ head: content.slice(at, start + CONTENT_OPEN.length), body: content.slice(start + CONTENT_OPEN.length, stop) });
      end = stop + ENTRY_END.length;
    } else {
      end = content.indexOf('\n', at);
      if (end < 0) return undefined;
      parts.push({ line: content.slice(at, end) });
    }
    if (content[end] !== '\n') return undefined;
    at = end + 1;
  }
  return { parts, rest: content.slice(at + RESULTS_BLOCK_CLOSE.length) };
}

/** A result's content as it reads: its CDATA body with each split `]]>` joined again. */
export function contentText(body: string): string {
  return body.replaceAll(CDATA_SPLIT, CDATA_END);
}

/** A result's entry written again, with `text` (as it reads) for its content. */
export function entryWith(head: string, text: string): string {
  return `${head}${text.replaceAll(CDATA_END, CDATA_SPLIT)}${ENTRY_END}`;
}

/** How long `text` is written in CDATA: each `]]>` split takes 15 characters. */
export function writtenLength(text: string): number {
  return text.length + (CDATA_SPLIT.length - CDATA_END.length) * (text.split(CDATA_END).length - 1);
}
