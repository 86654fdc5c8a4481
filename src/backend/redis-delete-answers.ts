/**
 * How `RedisSessionStore.delete` reads the answers of its transactions, and what it tells the
 * user when Redis refused a command in place (the rest of the transaction went through: Redis
 * never rolls a `MULTI` back): which of it deleting the conversation again finishes, and which
 * it cannot, with the commands that finish that by hand; and when Redis discarded a whole
 * transaction (`EXECABORT`), that nothing of it was applied and a retry finishes it.
 *
 * @module
 */
import { shownKey, warnBadData } from './bad-data-warning.js';
import { redisFailure } from './redis-connection.js';

/** A command of a delete's transaction: its name, then its key (or channel), then the rest. */
export type DeleteCommand = [name: string, ...keyAndArgs: (string | number)[]];

/**
 * What a command of a delete does, which decides what a retry redoes when it is refused:
 * `mark` a task marked deleted (its own transaction, before anything of its round is deleted),
 * `conversation` the conversation's own keys or index entry, `task-set` the ids read taken out
 * of its task set, `task-keys` the tasks' keys, `task-log` a task's event log emptied, `forget`
 * the message that has every engine forget its copies of the tasks.
 */
export type DeletePart = 'mark' | 'conversation' | 'task-set' | 'task-keys' | 'task-log' | 'forget';

/** A command of a delete's transaction, with what it does. */
export interface DeleteStep {
  readonly part: DeletePart;
  readonly command: DeleteCommand;
}

/**
 * Checks each answer of a delete's transaction (Redis runs every command of a `MULTI`, and
 * answers an error for the ones that failed, in place). A key of another type than the
 * command needs (`WRONGTYPE`: a task set, a task's event log or the index that is not what
 * this store writes there) holds nothing of the conversation: it is left as it is, with a
 * warning, and the delete goes on. Failing the delete for it would make the conversation
 * impossible to delete (every retry meets the same key), the way a planted record is left
 * rather than fail the delete. Any other error is Redis refusing a command: the delete fails,
 * naming every command refused, and saying what a retry finishes and what only a command by
 * hand does ({@link refusalMessage}).
 */
export function checkDeleteAnswers(sessionId: string, steps: readonly DeleteStep[], answers: readonly [Error | null, unknown][]): void {
  const refused: Refused[] = [];
  for (const [i, [error]] of answers.entries()) {
    const step = steps[i];
    if (!error || !step) continue;
    const [name, key] = step.command.map(String) as [string, string];
    if (error.message.startsWith('WRONGTYPE')) {
      warnBadData(key, `Redis key ${shownKey(key)} is of another type than a session store writes there (${name.toUpperCase()} refused it: ${shownKey(error.message)}): it holds nothing of conversation "${shownKey(sessionId)}", whose delete left it as it is and went on.`);
      continue;
    }
    refused.push({ step, error });
  }
  if (refused.length > 0) throw redisFailure('deleting a session', new Error(refusalMessage(sessionId, refused)));
}

/**
 * What a delete's transaction that failed throws, as a `catch` handler: an `EXECABORT` says
 * nothing of it was applied and that deleting again finishes it (`deleteTransactionFailure`);
 * any other failure is Redis's, as it is.
 *
 * @example
 * ```ts
 * await redis.multi(commands).exec().catch(failDeleting(sessionId));
 * ```
 */
export function failDeleting(sessionId: string): (e: unknown) => never {
  return (e) => {
    throw deleteTransactionFailure(sessionId, e);
  };
}

/**
 * The error for a delete's transaction that failed as a whole (its `EXEC` rejected). Redis
 * answers `EXECABORT` when it refused a command as it was queued (an ACL that does not allow
 * it, memory past `maxmemory` for a command that may grow it): it then discards the whole
 * transaction, so nothing of it was applied, and deleting the conversation again once the
 * cause is fixed finishes it (a retry reads again what is left, and does it all). The message
 * says so, with the reasons Redis gave; any other failure is reported as it is.
 *
 * @example
 * ```ts
 * await redis.multi(commands).exec().catch(failDeleting(sessionId));
 * ```
 */
function deleteTransactionFailure(sessionId: string, e: unknown): Error {
  if (!(e instanceof Error) || !e.message.startsWith('EXECABORT')) return redisFailure('deleting a session', e);
  const previous = (e as { previousErrors?: unknown }).previousErrors;
  const reasons = new Set(Array.isArray(previous) ? previous.map((p) => (p instanceof Error ? p.message : String(p))) : []);
  const why = reasons.size > 0 ? ` (EXECABORT), having refused a command of it as it was queued (${[...reasons].join('; ')})` : ` (${e.message})`;
  const message =
    `Redis discarded a whole transaction of the delete of conversation "${sessionId}"${why}, so nothing of that transaction was applied: ` +
    "see why in Redis (ACL LOG for a command the user's ACLs do not allow, INFO memory for memory past maxmemory), then delete the conversation again, which finishes it";
  return redisFailure('deleting a session', new Error(message, { cause: e }));
}

interface Refused {
  readonly step: DeleteStep;
  readonly error: Error;
}

const SEE_WHY = 'see why in Redis (its log, its ACLs, its configuration)';

/**
 * What to tell the user. A retry reads the conversation's task set again, and acts on the
 * tasks whose records it still finds there: so it redoes the conversation's part and the set's
 * always, the tasks' keys only when the set kept their ids (its `SREM` refused too), and a
 * log or the forget message only when the tasks' records were kept as well (their `DEL`
 * refused too: the list of a task's logs goes with them).
 */
function refusalMessage(sessionId: string, refused: readonly Refused[]): string {
  const named = refusals(refused);
  if (refused.some(({ step }) => step.part === 'mark')) {
    return `Redis refused ${named} while marking the tasks of conversation "${sessionId}" deleted, before anything of them was deleted: ${SEE_WHY}, then delete the conversation again, which finishes it`;
  }
  const parts = new Set(refused.map(({ step }) => step.part));
  const setKept = parts.has('task-set');
  const redone = (part: DeletePart): boolean =>
    part === 'conversation' || part === 'task-set' || (part === 'task-keys' ? setKept : setKept && parts.has('task-keys'));
  const byHand = refused.filter(({ step }) => !redone(step.part));
  const head = `Redis refused ${named} while the rest of the delete of conversation "${sessionId}" went through (Redis undoes nothing)`;
  if (byHand.length === 0) return `${head}: ${SEE_WHY}, then delete the conversation again, which finishes it`;
  const some = byHand.length < refused.length;
  const lost = setKept ? "the same transaction deleted the tasks' records (and their lists of event logs)" : "the same transaction took the tasks out of the conversation's task set";
  return (
    `${head}: ${SEE_WHY}. Deleting the conversation again ${some ? 'finishes the rest but ' : ''}cannot redo ${byHand.map(({ step }) => describe(step.command)).join(', ')}: ` +
    `${lost}, so a retry no longer finds them (marked deleted, they take no more writes; what is left of them expires in time, readable until then). ` +
    `Once Redis accepts the command, run by hand (redis-cli): ${byHand.map(({ step }) => commandText(step.command)).join(' ; ')}${some ? '; then delete the conversation again' : ''}`
  );
}

/** The commands refused, those refused for one reason named together before it. */
function refusals(refused: readonly Refused[]): string {
  const byReason = new Map<string, string[]>();
  for (const { step, error } of refused) byReason.set(error.message, [...(byReason.get(error.message) ?? []), describe(step.command)]);
  return [...byReason].map(([reason, commands]) => `${commands.join(', ')} (${reason})`).join('; ');
}

/** A command named by its name and first key (and how many more), for a message. */
function describe([name, key, ...rest]: DeleteCommand): string {
  const more = name === 'del' && rest.length > 0 ? ` (and ${rest.length} more keys)` : '';
  return `${name.toUpperCase()} ${String(key)}${more}`;
}

/** A command as typed in redis-cli: an argument other than a plain word double-quoted. */
function commandText([name, ...args]: DeleteCommand): string {
  return [name.toUpperCase(), ...args.map((arg) => (/^[\w:.@-]+$/.test(String(arg)) ? String(arg) : JSON.stringify(String(arg))))].join(' ');
}
