import type { ServerResponse } from 'node:http';
import { SessionBusyError } from '../agent/session-busy-error.js';
import { EngineClosedError } from '../engine/engine-closed-error.js';
import { errorMessage } from '../errors/error-message.js';
import { AnswerNotAppliedError } from '../runs/answer-not-applied-error.js';
import { UnknownRunError } from '../runs/unknown-run-error.js';
import { UnknownAgentError } from '../subagent/unknown-agent-error.js';
import { UnsealedSessionError } from '../session/unsealed-session-error.js';
import { NotRegularFileError } from '../session/not-regular-file-error.js';
import { SessionFileTooLargeError } from '../session/session-file-too-large-error.js';
import { HttpFailure } from './http-failure.js';
import { closeIfBodyUnread } from './close-if-body-unread.js';
import { DEFAULT_DRAIN_TIMEOUT_MS, destroyUnlessDrained } from '../adapters/drain-deadline.js';

const JSON_HEADERS = {
  'content-type': 'application/json; charset=utf-8',
  // answers describe a run at one moment: never cached, never sniffed as something else
  'cache-control': 'no-store',
  'x-content-type-options': 'nosniff',
} as const;

/** Writes `body` as a JSON answer (or no body for `204`). */
export function sendJson(res: ServerResponse, status: number, body: unknown, headers: Readonly<Record<string, string>> = {}): void {
  if (res.headersSent || res.destroyed) return;
  if (status === 204) {
    res.writeHead(204, { 'cache-control': 'no-store', ...headers });
    res.end();
    return;
  }
  const text = JSON.stringify(body);
  const bytes = Buffer.byteLength(text);
  res.writeHead(status, { ...JSON_HEADERS, 'content-length': String(bytes), ...headers });
  res.end(text);
  // More than sockets take at once (a long session, an archive): a client that does not read it keeps no socket.
  if (bytes > LARGE_ANSWER_BYTES) destroyUnlessDrained(res, DEFAULT_DRAIN_TIMEOUT_MS);
}

/** Above this an answer may wait in memory for its client: it gets the drain deadline. */
const LARGE_ANSWER_BYTES = 64 * 1024;

/**
 * Answers a failure: an {@link HttpFailure} with its status, an error of the engine with
 * the status its kind means (an unknown run `404`, a busy session `409`, a stored session
 * holding messages not sealed with the user's key `409` (its message says how to keep or
 * delete it), a closed engine `503`, an unknown agent or a bad prompt `400`, an approval answer another instance did not
 * take in time `504`), anything else `500`. A failure answered before the request's body
 * was read (a `415`, an unknown run) closes the connection ({@link closeIfBodyUnread}): else
 * a client trickling that body in keeps its socket. Once an answer has
 * started there is nothing left to say: the connection is dropped.
 */
export function sendFailure(res: ServerResponse, error: unknown): void {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  const status = statusOf(error);
  const headers = { ...closeIfBodyUnread(res), ...(error instanceof HttpFailure ? error.headers : {}) };
  const message = status === 500 ? `internal error: ${errorMessage(error)}` : errorMessage(error);
  sendJson(res, status, { error: message }, headers);
}

function statusOf(error: unknown): number {
  if (error instanceof HttpFailure) return error.status;
  if (UnknownRunError.isInstance(error)) return 404;
  if (SessionBusyError.isInstance(error)) return 409;
  // The stored session waits for the user's word (trust it, or delete it): no fault of the server's.
  if (UnsealedSessionError.isInstance(error)) return 409;
  // Something not made by rxharness sits where a session file goes: the user removes it.
  if (NotRegularFileError.isInstance(error)) return 409;
  // A session file too large to read (planted, or an enormous history): the user moves it away.
  if (SessionFileTooLargeError.isInstance(error)) return 409;
  if (EngineClosedError.isInstance(error)) return 503;
  if (UnknownAgentError.isInstance(error)) return 400;
  // An answer the run's owning instance did not take in time: its message says whether it was withdrawn.
  if (AnswerNotAppliedError.isInstance(error)) return 504;
  return 500;
}
