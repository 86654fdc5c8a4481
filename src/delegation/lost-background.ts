import type { ChatMessage } from '../model/chat-message.js';
import { unfinishedTurn, UNANSWERED_TURN } from '../session/close-turn.js';
import type { MaybePromise, SessionStore } from '../session/session-store.js';
import { settledStarts, type SettledStarts } from './settled-starts.js';
import { failedTask, type TaskResultFields } from './task-result-format.js';
import { isUnsettled, type TaskInfo } from './task-info.js';
import { unreportedStarts, type UnreportedStart } from './unreported-starts.js';

/** The most lost tasks one prompt tells of (each is a session load); the others stay unreported, so a later prompt tells them. */
export const LOST_PER_PROMPT = 10;

// What both notes closing a turn without an answer start with (`closingMessages`), read from them so a new wording follows.
const NO_ANSWER = commonStart(UNANSWERED_TURN, unfinishedTurn('\u0000'));

/**
 * The results of background tasks whose end a conversation was promised and never told:
 * started in its `history` ({@link unreportedStarts}), and neither running nor known to `tasks`
 * as running now (their engine stopped: it was closed, or its process died, and their results
 * waited only in its memory). Each reads its own session (`store.load`): its final answer when
 * the session ends on one, else that it was interrupted and how to resume it. Only a task the
 * store records as this conversation's (`loadTaskInfo`: its `ownerSessionId` is `sessionId`) is
 * read: a history's text may name any id (a history imported or edited by hand), and another
 * conversation's session must never reach this one's prompt; a store keeping no task info
 * tells none. At most {@link LOST_PER_PROMPT}, counted among those the store records as this
 * conversation's: one it does not (its task info deleted with its session) takes no slot, or
 * ten such would hide every later one for good; nor is it read again at a later prompt
 * (`settledStarts`: an owner never changes, a deleted task info never comes back).
 * Synchronous (and `[]`) when there is nothing to tell, so a conversation without such tasks
 * costs no load and its runs stay synchronous.
 * The caller leaves out those whose result it is delivering anyway (one still waiting on a
 * backend).
 *
 * @example
 * ```ts
 * const lost = await lostBackgroundResults(history, 'chat', engine.tasks, engine.sessions);
 * ```
 */
export function lostBackgroundResults(
  history: readonly ChatMessage[],
  sessionId: string,
  tasks: { get(taskId: string): TaskInfo | undefined },
  store: Pick<SessionStore, 'load' | 'loadTaskInfo'>,
): MaybePromise<TaskResultFields[]> {
  const settled = settledStarts(store, sessionId);
  const starts = unreportedStarts(history).filter((start) => {
    if (settled.has(start.taskId)) return false;
    const known = tasks.get(start.taskId);
    return known === undefined || !isUnsettled(known);
  });
  const loadTaskInfo = store.loadTaskInfo?.bind(store);
  if (starts.length === 0 || !loadTaskInfo) return [];
  // A store that cannot read a task info now (`undefined`) may later: only its answer settles a start.
  const owns = (taskId: string): Promise<boolean | undefined> =>
    Promise.resolve()
      .then(() => loadTaskInfo(taskId))
      .then((info) => info?.ownerSessionId === sessionId, () => undefined);
  return ownedStarts(starts, owns, settled).then((owned) => Promise.all(owned.map((start) => resultOf(start, store))));
}

/**
 * The first {@link LOST_PER_PROMPT} of `starts` whose task `owns` says is the conversation's,
 * their owners read a slice of that many at a time (each a task info load), in start order.
 * Those it says are not are `settled`: no later prompt reads them again.
 */
async function ownedStarts(starts: readonly UnreportedStart[], owns: (taskId: string) => Promise<boolean | undefined>, settled: SettledStarts): Promise<UnreportedStart[]> {
  const owned: UnreportedStart[] = [];
  for (let at = 0; at < starts.length && owned.length < LOST_PER_PROMPT; at += LOST_PER_PROMPT) {
    const slice = starts.slice(at, at + LOST_PER_PROMPT);
    const answers = await Promise.all(slice.map((start) => owns(start.taskId)));
    slice.forEach((start, i) => {
      if (answers[i] === true) owned.push(start);
      else if (answers[i] === false) settled.add(start.taskId);
    });
  }
  return owned.slice(0, LOST_PER_PROMPT);
}

/** An owned lost task's entry: its session's final answer, or that it was interrupted (its session unreadable too). */
async function resultOf(start: UnreportedStart, store: Pick<SessionStore, 'load'>): Promise<TaskResultFields> {
  const { taskId } = start;
  const fields = { taskId, agentName: unescapeXml(start.agentName), description: unescapeXml(start.description) };
  let answer: string | undefined;
  try {
    answer = finalAnswer(await store.load(taskId));
  } catch {
    answer = undefined; // unreadable now: told as interrupted, which a resume clears up
  }
  if (answer !== undefined) return { ...fields, status: 'success', content: answer };
  return { ...fields, ...failedTask(`interrupted: the engine stopped before it finished; resume it with task_id ${taskId}`) };
}

/** The answer a task's session ends on: its last message, from the model, with text and no call, and not a note that the turn did not finish. */
function finalAnswer(session: readonly ChatMessage[]): string | undefined {
  const last = session.at(-1);
  if (last?.role !== 'assistant' || last.tool_calls?.length || !last.content) return undefined;
  return last.content.startsWith(NO_ANSWER) ? undefined : last.content;
}

/** The text `escapeXml` wrote. */
function unescapeXml(text: string): string {
  const named: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };
  return text.replace(/&(amp|lt|gt|quot|apos);/g, (_, name: string) => named[name]!);
}

function commonStart(a: string, b: string): string {
  let i = 0;
  while (i < a.length && a[i] === b[i]) i++;
  return a.slice(0, i);
}
