/**
 * The delete of a conversation from `RedisSessionStore` (see `RedisSessionStore.delete`): its
 * grants first, then its tasks marked, then its keys and theirs in one transaction per round,
 * each command's answer checked (redis-delete-answers.ts).
 *
 * @module
 */
import { checkDeleteAnswers, failDeleting, type DeleteStep } from './redis-delete-answers.js';
import type { RedisKeys } from './redis-keys.js';
import { failed, type SessionStoreParts } from './redis-session-write.js';
import { ownedTasks } from './redis-task-records.js';
import { forgetTasksMessage } from './task-messages.js';
import type { ResultMessage } from './waiting-results-store.js';

/** Rounds of a delete (see `delete`): more than any tree has levels. */
const MAX_DELETE_ROUNDS = 16;

/**
 * Deletes a conversation and the tasks it started, as `RedisSessionStore.delete` says (the id
 * checked by its caller).
 *
 * @internal
 */
export async function deleteSession(store: SessionStoreParts, sessionId: string): Promise<void> {
  const k = store.keys;
  await store.redis.del(k.grants(sessionId)).catch(failed('deleting a session'));
  // A task not marked yet may start one (a start refuses only a marked parent) between the
  // read of the set and the marks: the set keeps it (only the ids read are taken out), so
  // the next round finds it. One round per level of a tree at most; two in practice.
  for (let round = 0; round < MAX_DELETE_ROUNDS; round++) {
    const found = await ownedTasks(store.redis, k, sessionId);
    if (round > 0 && found.listed.length === 0) return;
    await deleteTasks(store, sessionId, found, round === 0);
  }
}

/**
 * Marks each task read from the conversation's set deleted, then deletes them (and, `first`,
 * the conversation itself) in one transaction, which takes every id read out of the set; each
 * command's answer is checked (`checkDeleteAnswers`): a key of another type is left with a
 * warning, any other refusal fails the delete.
 */
async function deleteTasks(store: SessionStoreParts, sessionId: string, found: { listed: string[]; owned: string[] }, first: boolean): Promise<void> {
  const k = store.keys;
  const tasks = found.owned;
  const logs = await taskLogs(store, sessionId, tasks);
  // Marked first, on their own: a mark Redis refuses fails the delete before anything is
  // deleted, so that a retry finds the tasks again (their records gone, it would not).
  if (tasks.length > 0) await run(store, sessionId, tasks.map((id) => ({ part: 'mark', command: ['set', k.deletedTask(id), '1', 'PX', store.ttlMs] })));
  const steps: DeleteStep[] = [];
  // With its record of background results taken or dropped (results-gone.ts), which the
  // engine's forget may just have renewed (its take records what it took), and its note of
  // results dropped unread, which that forget takes only if its engine had loaded it: left,
  // they would outlive the conversation by a week (the note shown to a new conversation of
  // the id). A late put of its tasks' results needs neither: their marks refuse it.
  const conversation: DeleteStep['command'] = ['del', ...sessionKeys(k, sessionId), k.resultsGone(sessionId), k.droppedResults(sessionId)];
  // A `taken` of no result: every engine holding a note of the conversation reads it back (gone).
  const noteGone: ResultMessage = { op: 'taken', sessionId, keys: [] };
  const notes: DeleteStep['command'] = ['publish', k.resultsChannel, JSON.stringify(noteGone)];
  if (first) steps.push({ part: 'conversation', command: conversation }, { part: 'conversation', command: ['zrem', k.sessionIndex(), sessionId] }, { part: 'conversation', command: notes });
  if (tasks.length > 0) steps.push({ part: 'task-keys', command: ['del', ...tasks.flatMap((id) => [...sessionKeys(k, id), k.task(id), k.taskLogs(id)])] });
  // Read empty: nothing can have joined it since (a key of another type, not ours, goes).
  steps.push({ part: 'task-set', command: found.listed.length > 0 ? ['srem', k.sessionTasks(sessionId), ...found.listed] : ['del', k.sessionTasks(sessionId)] });
  // Emptied, not deleted: a worker not yet stopped appends to the stream, which keeps its expiry (a new one would have none).
  for (const id of logs) steps.push({ part: 'task-log', command: ['xtrim', k.log(id), 'MAXLEN', 0] });
  if (tasks.length > 0) steps.push({ part: 'forget', command: ['publish', k.tasksChannel, forgetTasksMessage(tasks)] });
  await run(store, sessionId, steps);
}

/** Runs steps of a delete in one transaction, and checks each one's answer (`checkDeleteAnswers`: what a refusal leaves, what a retry finishes). */
async function run(store: SessionStoreParts, sessionId: string, steps: readonly DeleteStep[]): Promise<void> {
  const answers = await store.redis.multi(steps.map((step) => step.command)).exec().catch(failDeleting(sessionId));
  checkDeleteAnswers(sessionId, steps, answers ?? []);
}

/** The event logs of the tasks' launches on workers: the ids each task's list holds of its own form (`<task>.<launch>`; no other log). */
async function taskLogs(store: SessionStoreParts, sessionId: string, tasks: readonly string[]): Promise<string[]> {
  const reads = store.redis.multi();
  for (const id of tasks) reads.smembers(store.keys.taskLogs(id));
  const answers = tasks.length === 0 ? [] : ((await reads.exec().catch(failDeleting(sessionId))) ?? []);
  return tasks.flatMap((id, i) => {
    const [error, ids] = answers[i] ?? [];
    return error || !Array.isArray(ids) ? [] : (ids as unknown[]).filter((log): log is string => typeof log === 'string' && log.startsWith(`${id}.`));
  });
}

/** The keys of a session (its messages, task info, grants, archive and mark, summary); its task set is emptied by `delete` as it reads it. */
function sessionKeys(k: RedisKeys, id: string): string[] {
  return [k.session(id), k.taskInfo(id), k.grants(id), k.archive(id), k.archived(id), k.sessionSummary(id)];
}
