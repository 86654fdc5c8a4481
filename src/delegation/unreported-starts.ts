import type { ChatMessage } from '../model/chat-message.js';
import { RESULTS_BLOCK_CLOSE, RESULTS_BLOCK_OPEN } from '../session/compaction/results-block.js';

/** A background task a conversation's history started, whose end no later results block told. */
export interface UnreportedStart {
  /** The task's id (its session's id too). */
  readonly taskId: string;
  /** The agent that ran it, as its start's result names it (escaped as written). */
  readonly agentName: string;
  /** Its label, as its start's result names it (escaped as written). */
  readonly description: string;
}

// The fields of a `<task_result>` as `formatTaskResult` writes them: escaped text, no `<` inside.
// Matched only in what the engine wrote (`engineWritten`): never in a child's answer.
const ENTRY = /<description>([^<]*)<\/description><agent_name>([^<]*)<\/agent_name><task_id>([^<]*)<\/task_id><result_status>(\w+)<\/result_status>/g;
const RUNNING = '<result_status>running</result_status>';
// The note of results dropped unread (`promptResultsBlock`): it told the model those ended. Its
// whole line, read only outside the entries (`ENTRY_SPAN`): a description is escaped but keeps its
// newlines, so the parent's model could spell the note on a line of its own inside an entry.
const DROPPED = /^\(\d+ background task (?:result was|results were) dropped unread because too many results were waiting: (.*?)(?: and others)?\. Run them again if you need them\.\)$/m;
// An entry of a block, its content gone (`engineWritten`), to its end or the text's (cut short):
// its fields are escaped, so the first `</task_result>` is its own.
const ENTRY_SPAN = /<task_result>[\s\S]*?(?:<\/task_result>|$)/g;
// A CDATA section, to its first `]]>` (or the text's end, for one cut short): `cdata` splits
// each `]]>` of a content, so no child's answer ends its section early.
const CDATA_SECTION = /<!\[CDATA\[[\s\S]*?(?:\]\]>|$)/g;
/** The tools whose results start background tasks: only their results are ours to read (a `read` of a planted file may hold the same text). */
const DELEGATING: ReadonlySet<string> = new Set(['task', 'multitask']);

/**
 * The background tasks `history` started (a `task` result with status `running`) that no
 * later results block in front of a prompt named, by a result or by the note of results
 * dropped unread: those whose end the conversation has not been told, oldest start first. A
 * task started again (resumed in the background) counts from its last start. Only the blocks
 * the engine writes close a start (never the text of a prompt after one; a block cut short of
 * its closing line is read to its end), so a task whose result was promised and never given
 * is found again at every prompt until one is saved. The note counts only as the line the
 * engine writes: a task's description spelling it inside an entry names no task.
 * Only the results of the history's own `task` and `multitask` calls count: another tool's
 * result (a file `read` shows) holding the same text names no task of this conversation.
 * Nor does a result's content (a child's raw answer, which may quote such text, or the end
 * of a results block): only the fields the engine wrote around it are read.
 *
 * @example
 * ```ts
 * unreportedStarts(await store.load('chat')); // [{ taskId: 'task_1', agentName: 'explore', description: 'count TODOs' }]
 * ```
 */
export function unreportedStarts(history: readonly ChatMessage[]): UnreportedStart[] {
  const open = new Map<string, UnreportedStart>();
  const delegations = new Set<string>();
  for (const message of history) {
    if (message.role === 'assistant') {
      for (const call of message.tool_calls ?? []) if (DELEGATING.has(call.function.name)) delegations.add(call.id);
    } else if (message.role === 'tool') {
      // most tool results: no regex over them
      if (!delegations.has(message.tool_call_id) || !message.content.includes(RUNNING)) continue;
      for (const [, description, agentName, taskId, status] of engineWritten(message.content).matchAll(ENTRY)) {
        if (status !== 'running') continue;
        open.delete(taskId!); // its last start counts: kept in start order
        open.set(taskId!, { taskId: taskId!, agentName: agentName!, description: description! });
      }
    } else if (message.role === 'user' && open.size > 0 && message.content.startsWith(RESULTS_BLOCK_OPEN)) {
      const written = engineWritten(message.content);
      const close = written.indexOf(RESULTS_BLOCK_CLOSE);
      // A block cut short (no closing line) is read to its end, its last character too.
      const block = close < 0 ? written : written.slice(0, close);
      for (const [, , , taskId] of block.matchAll(ENTRY)) open.delete(taskId!);
      const dropped = DROPPED.exec(block.replace(ENTRY_SPAN, ''))?.[1];
      for (const taskId of dropped?.split(', ') ?? []) open.delete(taskId);
    }
  }
  return [...open.values()];
}

/**
 * `text` without its CDATA sections: what the engine wrote of a `task` result or a results
 * block, without the contents (`formatTaskResult` puts each in CDATA, its other fields escaped).
 */
function engineWritten(text: string): string {
  return text.replace(CDATA_SECTION, '');
}
