/**
 * Reading what a worker publishes on a job's approvals channel. Anyone with access to the
 * Redis can publish there, and every `ask` read becomes an approval waiting in the delegating
 * run (its record, with every waiting approval, goes to each engine on the backend): an ask
 * is taken only in the shape and sizes a worker sends, and one that is not is refused.
 *
 * @module
 */
import { MAX_REPLY_CHARS } from '../model/reply-limit.js';
import { isApprovalId } from '../permission/approval-id.js';
import type { ApprovalRequest } from '../permission/approval.js';
import { isPlainObject, storedObject } from './stored-object.js';
import { MAX_ID_CHARS } from './task-record.js';
import type { ApprovalAsk } from './task-job.js';

/** The longest tool or agent name an ask may carry: definitions' names are at most 64, tools' far less than this. */
export const MAX_ASK_NAME_CHARS = 256;
/** The longest `reason` (a permission decision's: a rule and a shortened command) an ask may carry. */
export const MAX_ASK_REASON_CHARS = 64 * 1024;
/**
 * The most bytes (UTF-8 of its JSON) a call's arguments may take in an ask: each waiting ask
 * is held by the engine (and handed to its `approve` handler) until answered, 64 a run. A
 * call a human reviews fits many times over (a command, a path, an edit; an edited file is
 * at most 5 MiB whole, its edit far less); a larger one (a `write` of a large file) is
 * rejected, and its model told to write it in parts.
 */
export const MAX_ASK_ARGS_BYTES = 1024 * 1024;
/**
 * The longest ask message: a call's arguments come from one model reply, so are at most
 * `MAX_REPLY_CHARS` as JSON; the other fields are bounded by the checks below.
 */
export const MAX_ASK_CHARS = MAX_REPLY_CHARS + 64 * 1024;

/** A message read: a withdraw, an ask to put to the engine, or one to refuse (with why), or nothing answerable. */
export type ReadAsk =
  | { readonly kind: 'withdraw'; readonly id: string }
  | { readonly kind: 'ask'; readonly id: string; readonly ask: Extract<ApprovalAsk, { kind: 'ask' }> }
  | { readonly kind: 'refuse'; readonly id: string; readonly replyTo: string; readonly problem: string };

const isId = (v: unknown): v is string => typeof v === 'string' && v.length > 0 && v.length <= MAX_ID_CHARS;
const isText = (v: unknown, max: number): v is string => typeof v === 'string' && v.length <= max;
const isName = (v: unknown): v is string => typeof v === 'string' && v.length > 0 && v.length <= MAX_ASK_NAME_CHARS;

/**
 * `text` from a job's approvals channel as a worker's message, or undefined when nothing can
 * be answered (not JSON, no usable `id` or `replyTo`): such a message is only dropped.
 *
 * @example
 * ```ts
 * readAsk('{"kind":"withdraw","id":"1"}'); // { kind: 'withdraw', id: '1' }
 * readAsk(JSON.stringify({ kind: 'ask', id: '1', replyTo: 'w', request: { toolName: 'x'.repeat(1e4) } })); // { kind: 'refuse', ... }
 * ```
 *
 * @internal
 */
export function readAsk(text: string): ReadAsk | undefined {
  const v = storedObject(text);
  if (!isId(v?.['id'])) return undefined;
  const id = v['id'];
  if (v['kind'] === 'withdraw') return { kind: 'withdraw', id };
  if (v['kind'] !== 'ask' || !isId(v['replyTo'])) return undefined;
  const replyTo = v['replyTo'];
  const problem = text.length > MAX_ASK_CHARS ? `the message is longer than ${MAX_ASK_CHARS} characters` : requestProblem(v['request']);
  if (problem) return { kind: 'refuse', id, replyTo, problem };
  return { kind: 'ask', id, ask: { kind: 'ask', id, replyTo, request: v['request'] as unknown as ApprovalRequest } };
}

/** What is wrong with a relayed approval request, in a warning's words; undefined when it is one a worker sends. */
function requestProblem(request: unknown): string | undefined {
  if (!isPlainObject(request)) return 'its request is not an object';
  const r = request;
  if (!isApprovalId(r['approvalId'])) return 'its approvalId is not an approval id (printable ASCII, at most 256 characters)';
  if (!isName(r['toolName'])) return `its toolName is not a name of at most ${MAX_ASK_NAME_CHARS} characters`;
  if (!isName(r['agentName'])) return `its agentName is not a name of at most ${MAX_ASK_NAME_CHARS} characters`;
  for (const field of ['callId', 'runId', 'sessionId'] as const) {
    if (!isId(r[field])) return `its ${field} is not an id of at most ${MAX_ID_CHARS} characters`;
  }
  if (r['taskId'] !== undefined && !isId(r['taskId'])) return `its taskId is not an id of at most ${MAX_ID_CHARS} characters`;
  if (r['taskLabel'] !== undefined && !isText(r['taskLabel'], MAX_ID_CHARS)) return `its taskLabel is not a text of at most ${MAX_ID_CHARS} characters`;
  if (!isText(r['reason'], MAX_ASK_REASON_CHARS)) return `its reason is not a text of at most ${MAX_ASK_REASON_CHARS} characters`;
  const bytes = argsBytes(r['args']);
  if (bytes > MAX_ASK_ARGS_BYTES) return `its args are ${bytes} bytes as JSON, more than the ${MAX_ASK_ARGS_BYTES} an approval asked from a worker may carry`;
  return undefined;
}

/**
 * The bytes (UTF-8) of a call's arguments as JSON, as an ask carries them: held to
 * {@link MAX_ASK_ARGS_BYTES} by the worker before it asks, and by the launcher again (anyone
 * can publish on the channel).
 *
 * @internal
 */
export function argsBytes(args: unknown): number {
  return Buffer.byteLength(JSON.stringify(args) ?? '', 'utf8');
}
