import { RxHarnessError } from '../errors/rxharness-error.js';
import { quotedClip } from '../text/quoted-clip.js';
import { EARLIER_LIFETIMES_CHECKED } from './history-seal.js';

/** How much of a task id or record name a record's refusal quotes: a hostile one may be megabytes long. */
const MAX_SHOWN_NAME_CHARS = 200;

/**
 * Thrown when `FileSessionStore` reads a session file holding messages (or a compaction
 * mark) that are not sealed with the user's key for this folder, session and place in the
 * file: changed, moved (reordered, a line before them removed), copied from another session
 * or file, written by a version of rxharness from before history was sealed, sealed in
 * another folder (a moved workspace) or with another key, or planted (a cloned repository
 * can ship `.rxharness/sessions/`). Nothing is taken as the conversation; the file is left
 * as it is. The message says what was found and how to keep the session when it is the
 * user's own: the store's `trustUnsealed` option (`rxharness run --session NAME
 * --trust-session`), which seals it. With `what: 'deleted'`, some of those lines are sealed
 * for an earlier lifetime of the conversation (before a delete of it): a deleted conversation's
 * lines, put back, or read while a delete of it is under way (in another process or store);
 * the message then says so, and advises nothing that would bring it back (`trustUnsealed`
 * refuses such a file too). With `what: 'maybe-deleted'`, the lines fail their seals and
 * cannot be told apart from a deleted conversation's: the conversation was deleted more than
 * 32 times, and only its 32 latest earlier lifetimes are checked. The message says so, and
 * that if the key changed (a restored home folder, another machine) and the lines are the
 * user's, `--trust-session` (`trustUnsealed`) takes and seals them; otherwise to remove the
 * files. With `what: 'one-shot-task'`, the session is a task a run without a `sessionId` (a
 * one-shot run) delegated (its id and its task file, or the lack of a sealed one, say so: `isOneShotTask`): such a task session is sealed for a
 * lifetime kept only in the process that ran it, so its files load only there, until the run
 * ends and the engine removes them; kept aside and put back, or read by another process, they
 * load nowhere, and `trustUnsealed` refuses them too (no one names such a session). The
 * message says so, and that its files can be removed. With `what: 'one-shot-task-file'`, the
 * same for such a task's task file, read to resume the task: it was not planted or changed,
 * and the message says so, advising to start the task anew. Also thrown (`what: 'task'`) for a task file
 * (`<id>.task.json`) without a valid seal, when resuming the task: it is not resumed; and,
 * by `RedisSessionStore`, for a stored task record that is no task info (`problem` says what
 * is wrong with it, `file` is its key), rather than calling the task unknown.
 *
 * @example
 * ```ts
 * engine.call(prompt, { sessionId }).catch((e: unknown) => {
 *   if (e instanceof Error && e.name === 'UnsealedSessionError') console.error(e.message);
 * });
 * ```
 */
export class UnsealedSessionError extends RxHarnessError {
  /** The code of these errors. */
  static override readonly code = 'SESSION_NOT_SEALED';
  /** Always `'UnsealedSessionError'`, to recognise the error without `instanceof`. */
  override readonly name = 'UnsealedSessionError';

  /**
   * @param sessionId - the session that was read (for a task file, the task's).
   * @param file - the file read.
   * @param lines - the lines (1-based) without a valid seal.
   * @param what - what the file is: a session's history, a session's history holding a deleted conversation's
   *   lines (`'deleted'`), one whose lines cannot be told apart from a deleted conversation's (`'maybe-deleted'`:
   *   deleted too many times for every earlier lifetime to be checked), the history of a one-shot run's task session
   *   (`'one-shot-task'`: a task of a run without a `sessionId`, whose files load only in the process that ran it), a
   *   task file (`<id>.task.json`, read to resume the task), or such a one-shot run's task's task file (`'one-shot-task-file'`).
   * @param problem - what is wrong with a task record a store can tell more of than a failed seal (a Redis
   *   record: "is not JSON"), said in place of the seal; `file` is then the record's name (a Redis key).
   */
  constructor(
    readonly sessionId: string,
    readonly file: string,
    readonly lines: readonly number[],
    readonly what: 'history' | 'deleted' | 'maybe-deleted' | 'one-shot-task' | 'one-shot-task-file' | 'task' = 'history',
    readonly problem?: string,
  ) {
    super(problem !== undefined ? recordMessage(sessionId, file, problem) : messageOf(sessionId, file, lines, what));
  }
}

function messageOf(sessionId: string, file: string, lines: readonly number[], what: UnsealedSessionError['what']): string {
  if (what === 'task') return taskMessage(sessionId, file);
  if (what === 'one-shot-task-file') return oneShotTaskFileMessage(sessionId, file);
  if (what === 'deleted') return deletedMessage(sessionId, file, lines);
  if (what === 'maybe-deleted') return maybeDeletedMessage(sessionId, file, lines);
  if (what === 'one-shot-task') return oneShotTaskMessage(sessionId, file, lines);
  return historyMessage(sessionId, file, lines);
}

function deletedMessage(sessionId: string, file: string, lines: readonly number[]): string {
  const count = lines.length;
  return (
    `Session "${sessionId}" was not loaded: ${file} holds lines of a deleted conversation of that id, sealed before a delete ` +
    `of it (${count} line${count === 1 ? '' : 's'} not sealed for the conversation now: ${shownLines(lines)}). ` +
    'Either a delete of the session is under way (in another process or store: its files are going), or the deleted ' +
    "conversation's files were kept aside and put back. They are not taken, and --trust-session would not take them either: " +
    'the conversation was deleted. Wait for the delete to finish and run again (the session then starts anew), or remove ' +
    "the session's files left in the folder, or use another session name."
  );
}

/** Honest about what is not known: lines sealed with a replaced key and lines of a deleted conversation both fail every check made. */
function maybeDeletedMessage(sessionId: string, file: string, lines: readonly number[]): string {
  const count = lines.length;
  return (
    `Session "${sessionId}" was not loaded: ${file} holds ${count} line${count === 1 ? '' : 's'} not sealed for the conversation now ` +
    `(${shownLines(lines)}), which cannot be told apart from a deleted conversation's: the conversation of that id was deleted ` +
    `more than ${EARLIER_LIFETIMES_CHECKED} times, and lines sealed before its older deletes are not checked. ` +
    'If your key changed (a restored home folder, another machine) and these lines are your conversation, read the file and ' +
    'continue it once with --trust-session (the FileSessionStore option trustUnsealed), which seals it; otherwise remove ' +
    "the session's files from the folder, or use another session name."
  );
}

/** No `--trust-session` advice: no one names a one-shot run's task session, and `trustUnsealed` refuses it. */
function oneShotTaskMessage(sessionId: string, file: string, lines: readonly number[]): string {
  const count = lines.length;
  return (
    `Session "${sessionId}" was not loaded: ${file} holds ${count} line${count === 1 ? '' : 's'} not sealed for it now (${shownLines(lines)}). ` +
    'It is the session of a task delegated by a one-shot run (a run without a session id): its id has the form such a task ' +
    'has, and its task file names such a run, is gone, or is not sealed (a task without a sealed task file cannot be resumed). ' +
    "Such a task's files are sealed for a lifetime kept only in the process that ran it: they load only there, while the run " +
    'lasts, and the engine removes them as the run ends. These were kept aside and put back, or are read by another process ' +
    '(or that process ended before removing them): they load nowhere any more, and --trust-session would not take them ' +
    "either. Nothing needs them: remove the task's files from the folder."
  );
}

/** The first line numbers, as a message lists them. */
function shownLines(lines: readonly number[]): string {
  return `line${lines.length === 1 ? '' : 's'} ${lines.slice(0, 5).join(', ')}${lines.length > 5 ? ', ...' : ''}`;
}

function historyMessage(sessionId: string, file: string, lines: readonly number[]): string {
  const count = lines.length;
  const s = count === 1 ? '' : 's';
  return (
    `Session "${sessionId}" was not loaded: ${file} holds ${count} message${s} not sealed with your key for this folder ` +
    `at the place${s} where ${count === 1 ? 'it is' : 'they are'} (${shownLines(lines)}). ` +
    'Lines were changed, moved (reordered, a line before them removed) or copied from another session or file; or the file was ' +
    'written by rxharness before sessions were sealed, in another folder (a moved workspace) or with another key, or planted ' +
    '(a cloned repository can ship this file, with a made-up conversation). ' +
    'Read the file: if it is your conversation, continue it once with --trust-session (the FileSessionStore option trustUnsealed), ' +
    'which seals it; if not, delete it, or use another session name.'
  );
}

/** Not "planted or changed": a one-shot run's task file fails its seal in any other process, as it should. */
function oneShotTaskFileMessage(taskId: string, file: string): string {
  return (
    `Task "${taskId}" was not resumed: its task file ${file} is that of a task delegated by a one-shot run (a run without ` +
    "a session id), sealed for a lifetime kept only in the process that ran it: it loads only there, while the run lasts, " +
    'and the engine removes it as the run ends. This one was kept aside and put back, or is read by another process (or that ' +
    'process ended before removing it): it loads nowhere any more. Start the task anew instead of resuming it, and remove ' +
    "the task's files from the folder."
  );
}

function taskMessage(taskId: string, file: string): string {
  return (
    `Task "${taskId}" was not resumed: its task file ${file} is not sealed with your key for this folder. ` +
    'It was changed, copied from another file or folder, written by rxharness before task files were sealed, or planted ' +
    '(a cloned repository can ship it, naming any conversation as the task\'s owner). ' +
    'Start the task anew instead of resuming it, and delete the file.'
  );
}

function recordMessage(taskId: string, record: string, problem: string): string {
  return (
    `Task ${shownName(taskId)} was not resumed: its stored record ${shownName(record)} ${problem}, which is no task info a session store writes. ` +
    'It was changed, or written by something else with access to the store. ' +
    'Start the task anew instead of resuming it, and delete the record.'
  );
}

/**
 * A task id or a record's name (a Redis key holding it) as a refusal quotes it: both come
 * from outside (a model's `task_id`, the store), so JSON-quoted (line breaks, controls and
 * invisible characters escaped: `\n`, `\u001b`) and at most {@link MAX_SHOWN_NAME_CHARS}
 * characters long once quoted, cut in the middle (`quotedClip`): the message is one line,
 * read in a terminal and by the model, and a name must not forge lines there or bury the
 * rest of it (escaped after a cut, a name of controls came out six times the bound).
 */
function shownName(name: string): string {
  return quotedClip(name, MAX_SHOWN_NAME_CHARS);
}
