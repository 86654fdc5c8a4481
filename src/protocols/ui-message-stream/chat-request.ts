import { HttpFailure } from '../../http/http-failure.js';
import { isName, MAX_NAME, sessionIdRefusal } from '../../http/request-bodies.js';

/** What the chat handler reads of a `useChat` request. */
export interface ChatRequest {
  /** The chat's id: our session. */
  readonly chatId: string;
  /** The text of the last message, a user message: the prompt (earlier turns are in the session). */
  readonly prompt: string;
}

/**
 * Reads the body `useChat` (`DefaultChatTransport`) sends: `{ id, messages }`, each message
 * `{ id, role, parts }`; the prompt is the text parts of the last message, which must be the user's.
 *
 * @throws HttpFailure `400` naming what is missing, or an `id` that is no session id (as the
 *   runs API's `sessionId`: 1 to 256 characters without control characters, not `.` or `..`).
 */
export function readChatRequest(body: Record<string, unknown>): ChatRequest {
  const { id, messages } = body;
  if (typeof id !== 'string' || id === '') throw bad('id must be a non-empty string (the chat id)');
  // It is the session's id, echoed in the stream's metadata: bounded as the runs API's `sessionId`.
  if (!isName(id)) throw bad(`id must be 1 to ${MAX_NAME} characters without control characters (the chat id is the session's id), got ${id.length} characters`);
  const refusal = sessionIdRefusal(id);
  if (refusal !== undefined) throw bad(`id (the chat id is the session's id) ${refusal}`);
  if (!Array.isArray(messages) || messages.length === 0) throw bad('messages must be a non-empty array of UI messages');
  const last: unknown = messages.at(-1);
  if (!isObject(last) || last['role'] !== 'user') throw bad('the last message must be a user message: it is the prompt');
  const parts = Array.isArray(last['parts']) ? last['parts'] : [];
  const prompt = parts
    .filter((part): part is { type: 'text'; text: string } => isObject(part) && part['type'] === 'text' && typeof part['text'] === 'string')
    .map((part) => part.text)
    .join('\n')
    .trim();
  if (prompt === '') throw bad('the last message has no text part');
  return { chatId: id, prompt };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function bad(message: string): HttpFailure {
  return new HttpFailure(400, `not a chat request: ${message}`);
}
