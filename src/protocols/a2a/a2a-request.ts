import { randomUUID } from 'node:crypto';
import { isLegacyJsonRpcMethod } from '@a2a-js/sdk/compat/v0_3';
import { RequestMalformedError, UnsupportedOperationError } from '@a2a-js/sdk/errors';
import { isName, MAX_NAME, sessionIdRefusal } from '../../http/request-bodies.js';
import { expandedSize } from '../../validation/expanded-size.js';

/**
 * The most reference task ids a message may name. The SDK loads (copies) each one named, a
 * repeat too, before the run starts, and our runs never read them: 26,000 copies of one large
 * task fit in a 1 MiB body, and would take gigabytes.
 */
export const MAX_REFERENCE_TASKS = 16;

/**
 * The most parts a message may have. The SDK keeps the message in its task's history and
 * copies the whole task out of the store and back for every update of the run: 20,000 one-letter
 * parts (half a 1 MiB body) held the event loop, every run and client of the process, for a
 * second in a one-update run, and a run updates many times.
 */
export const MAX_MESSAGE_PARTS = 1000;

/**
 * The most JSON values a message may hold (each object, array, string, number, boolean and
 * null in it, counted as JSON writes them): its parts with their data and metadata, its
 * metadata and extensions, all of it. The parts cap alone does not bound the copies above: one
 * data part, or the message's metadata, of 340,000 empty objects (a 1 MiB body) held the event
 * loop for 8 to 21 s in one message's run, then 1 s for every `GetTask` of its task, which needs
 * no run slot. A message of {@link MAX_MESSAGE_PARTS} text parts holds 2,000 to 3,000.
 */
export const MAX_MESSAGE_VALUES = 10_000;

/** The JSON-RPC methods that send a message, so start a run: A2A 1.0's and 0.3's names. */
const SEND_METHODS: ReadonlySet<string> = new Set(['SendMessage', 'SendStreamingMessage', 'message/send', 'message/stream']);

/** The JSON-RPC methods that subscribe to a task's updates: A2A 1.0's and 0.3's names. */
const SUBSCRIBE_METHODS: ReadonlySet<string> = new Set(['SubscribeToTask', 'tasks/resubscribe']);

/** What the handler reads of a JSON-RPC request before the SDK sees it. */
export interface A2ARequestFacts {
  /** The request id, for an error answered before the SDK (null when absent or malformed). */
  readonly id: string | number | null;
  /** Whether it uses A2A 0.3's method names (`message/send`, ...), so the 0.3 transport answers it. */
  readonly legacy: boolean;
  /** Whether it subscribes to a task's updates (so it must stop when its client leaves). */
  readonly subscribe?: true;
  /** For a message: the prompt (its text parts, joined) and the conversation (its `contextId`, given or new). */
  readonly send?: { readonly prompt: string; readonly contextId: string };
  /** For a message that must not reach the SDK: the error it is answered with (it names a task, or too many reference tasks). */
  readonly refused?: Error;
}

/**
 * Reads a JSON-RPC request's id and method and, for a message, its text and `contextId`
 * (or `context_id`, as the SDK reads it).
 * A message without a `contextId` gets one here (`ses_<uuid>`, written into the body), so
 * the run's session and the A2A context are the same id from the start.
 *
 * A message naming more than {@link MAX_REFERENCE_TASKS} reference tasks, or of more than
 * {@link MAX_MESSAGE_PARTS} parts or {@link MAX_MESSAGE_VALUES} JSON values (counted in all of
 * it, data parts and metadata too), or with a `contextId` that is no session id (as the runs
 * API's `sessionId`: 1 to 256 characters without control characters, not `.` or `..`), is
 * `refused` as malformed (invalid params).
 *
 * A message naming a task (`taskId`, or proto JSON's `task_id`) is `refused`: our tasks never
 * wait for input, so there is nothing to continue. The SDK must not see it: for a task still
 * `working` it would call the executor with no run started, store that task as `failed` while
 * its run goes on, and then refuse `tasks/cancel` for it.
 */
export function readA2ARequest(body: Record<string, unknown>): A2ARequestFacts {
  const id = typeof body.id === 'string' || typeof body.id === 'number' ? body.id : null;
  const method = body.method;
  const legacy = isLegacyJsonRpcMethod(method);
  if (typeof method === 'string' && SUBSCRIBE_METHODS.has(method)) return { id, legacy, subscribe: true };
  if (typeof method !== 'string' || !SEND_METHODS.has(method)) return { id, legacy };
  const message = record(record(body.params)?.message);
  if (message === undefined) return { id, legacy }; // the SDK answers the malformed request
  const taskId = namedTask(message);
  if (taskId !== undefined) return { id, legacy, refused: new UnsupportedOperationError(refusal(taskId)) };
  const references = referenceCount(message);
  if (references > MAX_REFERENCE_TASKS) {
    return { id, legacy, refused: new RequestMalformedError(`a message may name at most ${MAX_REFERENCE_TASKS} reference tasks ("referenceTaskIds"), this one names ${references}`) };
  }
  const parts = Array.isArray(message.parts) ? message.parts : [];
  if (parts.length > MAX_MESSAGE_PARTS) {
    return { id, legacy, refused: new RequestMalformedError(`a message may have at most ${MAX_MESSAGE_PARTS} parts, this one has ${parts.length}: join its text into fewer parts`) };
  }
  // Counted before the SDK copies it; the count stops just past the cap, so a planted value costs little to refuse.
  if (expandedSize(message, MAX_MESSAGE_VALUES) > MAX_MESSAGE_VALUES) {
    return { id, legacy, refused: new RequestMalformedError(tooManyValues) };
  }
  // The SDK reads `contextId`, else proto JSON's `context_id`: so do we, or a client of the
  // second spelling would start a new conversation with every message.
  const given = message.contextId ?? message.context_id;
  // It is the session's id, kept with the task and echoed in every update: bounded as the runs API's `sessionId`.
  if (typeof given === 'string' && given !== '' && !isName(given)) {
    return { id, legacy, refused: new RequestMalformedError(`a message's contextId must be 1 to ${MAX_NAME} characters without control characters (it is the session's id), this one has ${given.length} characters`) };
  }
  const notSession = typeof given === 'string' && given !== '' ? sessionIdRefusal(given) : undefined;
  if (notSession !== undefined) return { id, legacy, refused: new RequestMalformedError(`a message's contextId (the session's id) ${notSession}`) };
  const contextId = typeof given === 'string' && given !== '' ? given : `ses_${randomUUID()}`;
  message.contextId = contextId;
  const prompt = parts.flatMap((part) => (typeof record(part)?.text === 'string' ? [record(part)!.text as string] : [])).join('\n');
  return { id, legacy, send: { prompt, contextId } };
}

/** The task a message names, as the SDK would read it (any value but absent, null or ''). */
function namedTask(message: Record<string, unknown>): string | undefined {
  for (const key of ['taskId', 'task_id']) {
    const value = message[key];
    if (value !== undefined && value !== null && value !== '') return typeof value === 'string' ? value : JSON.stringify(value);
  }
  return undefined;
}

/** How many reference task ids a message names, in either spelling the SDK reads (`referenceTaskIds`, proto JSON's `reference_task_ids`). */
function referenceCount(message: Record<string, unknown>): number {
  return Math.max(...['referenceTaskIds', 'reference_task_ids'].map((key) => (Array.isArray(message[key]) ? (message[key] as unknown[]).length : 0)));
}

const tooManyValues =
  `a message may hold at most ${MAX_MESSAGE_VALUES} JSON values (each object, array, string, number, boolean or null in it: its parts, their data and metadata, ` +
  `its metadata and extensions), this one holds more: send large data as JSON text in a text part (the agent reads only text parts)`;

function refusal(taskId: string): string {
  const shown = taskId.length > 80 ? `${taskId.slice(0, 80)}…` : taskId;
  return (
    `a message cannot name a task ("taskId": ${JSON.stringify(shown)}): this agent's tasks never wait for input, so none can be continued. ` +
    'Send the message without a taskId and with the task\'s contextId to go on in the same conversation (once its task has ended); tasks/cancel stops a running task'
  );
}

function record(value: unknown): Record<string, unknown> | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
}
