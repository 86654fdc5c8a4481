import type { Context, ResumeEntry, Tool as AgUiTool } from '@ag-ui/core';
import { HttpFailure } from '../../http/http-failure.js';
import { isName, MAX_NAME, sessionIdRefusal } from '../../http/request-bodies.js';
import type { ToolResult } from '../../tools/tool.js';

/** What the handler reads of a `RunAgentInput`. */
export interface AgUiRequest {
  /** The thread: our session id. */
  readonly threadId: string;
  /** The client's id for this AG-UI run. */
  readonly runId: string;
  /**
   * The prompt of a new turn: the last message when it is a user message, with the request's
   * `context` and `state` put in front of it; absent when the last message is not a user's
   * (a request that only brings tool results). Earlier messages are in our session already.
   */
  readonly prompt: string | undefined;
  /** The frontend's tools, offered to the model in this run. */
  readonly tools: readonly AgUiTool[];
  /** The tool messages at the end of the request (after its last message of another role), by the call each answers. */
  readonly toolResults: ReadonlyMap<string, ToolResult>;
  /** Answers to the interrupts of the AG-UI run before. */
  readonly resume: readonly ResumeEntry[];
  /** The tool call ids the client's messages hold (its assistant messages' calls, its tool messages' answers): a new run gives its calls others. */
  readonly toolCallIds: ReadonlySet<string>;
}

/**
 * Reads a `RunAgentInput` body.
 *
 * @throws HttpFailure `400` naming the field that is missing or of the wrong type, or a
 *   `threadId` that is no session id (as the runs API's `sessionId`: 1 to 256 characters without
 *   control characters, not `.` or `..`), or a `runId` that is no such name.
 */
export function readRunAgentInput(body: Record<string, unknown>): AgUiRequest {
  const { threadId, runId, messages, tools = [], context = [], state, resume = [] } = body;
  if (typeof threadId !== 'string' || threadId === '') throw bad('threadId must be a non-empty string (it names the conversation)');
  // It is the session's id, echoed in every answer's events: bounded as the runs API's `sessionId`.
  if (!isName(threadId)) throw bad(`threadId must be 1 to ${MAX_NAME} characters without control characters (it is the session's id), got ${threadId.length} characters`);
  const refusal = sessionIdRefusal(threadId);
  if (refusal !== undefined) throw bad(`threadId (the session's id) ${refusal}`);
  if (typeof runId !== 'string' || runId === '') throw bad('runId must be a non-empty string');
  // Echoed in RUN_STARTED and RUN_FINISHED (and kept while a run waits): bounded as a name too.
  if (!isName(runId)) throw bad(`runId must be 1 to ${MAX_NAME} characters without control characters (it is echoed in the run's events), got ${runId.length} characters`);
  if (!Array.isArray(messages)) throw bad('messages must be an array of AG-UI messages');
  if (!Array.isArray(tools)) throw bad('tools must be an array of AG-UI tools');
  if (!Array.isArray(context)) throw bad('context must be an array of { description, value }');
  if (!Array.isArray(resume)) throw bad('resume must be an array of resume entries');
  if (!messages.every(isObject)) throw bad('every message must be an object');
  const notEntry = resume.findIndex((entry) => !isObject(entry));
  if (notEntry !== -1) throw bad(`resume[${notEntry}] must be an object { interruptId, status, payload? }`);
  const toolResults = new Map<string, ToolResult>();
  for (const message of trailingToolMessages(messages as Array<Record<string, unknown>>)) {
    if (typeof message['toolCallId'] !== 'string') continue;
    const text = contentText(message['content']);
    const error = typeof message['error'] === 'string' ? message['error'] : undefined;
    toolResults.set(message['toolCallId'], error === undefined ? { text } : { text: text || `ERROR: ${error}`, error });
  }
  const last = messages.at(-1) as Record<string, unknown> | undefined;
  const userText = last?.['role'] === 'user' ? contentText(last['content']).trim() : '';
  return {
    threadId,
    runId,
    prompt: userText === '' ? undefined : preamble(context as Context[], state) + userText,
    tools: tools as AgUiTool[],
    toolResults,
    resume: resume as ResumeEntry[],
    toolCallIds: toolCallIdsIn(messages as Array<Record<string, unknown>>),
  };
}

/** The tool call ids of the messages: of assistant messages' `toolCalls`, and tool messages' `toolCallId`. */
function toolCallIdsIn(messages: ReadonlyArray<Record<string, unknown>>): Set<string> {
  const ids = new Set<string>();
  for (const message of messages) {
    if (typeof message['toolCallId'] === 'string') ids.add(message['toolCallId']);
    const calls = message['toolCalls'];
    if (!Array.isArray(calls)) continue;
    for (const call of calls) if (isObject(call) && typeof call['id'] === 'string') ids.add(call['id']);
  }
  return ids;
}

/**
 * The tool messages after the last message of another role: the results the client added for
 * the calls it was asked to run. Earlier ones answered earlier calls, whose ids a model may
 * repeat (`call_0` at every step, from a server that gives none).
 */
function trailingToolMessages(messages: ReadonlyArray<Record<string, unknown>>): ReadonlyArray<Record<string, unknown>> {
  let start = messages.length;
  while (start > 0 && messages[start - 1]!['role'] === 'tool') start -= 1;
  return messages.slice(start);
}

/** The request's `context` and `state`, as the model reads them before the user's message. */
function preamble(context: readonly Context[], state: unknown): string {
  const lines = context
    .filter((c) => isObject(c) && typeof c.value === 'string')
    .map((c) => `- ${typeof c.description === 'string' ? c.description : 'context'}: ${c.value}`);
  const parts: string[] = [];
  if (lines.length > 0) parts.push(`Context from the application:\n${lines.join('\n')}`);
  if (isObject(state) && Object.keys(state).length > 0) parts.push(`The application's state (JSON): ${JSON.stringify(state)}`);
  return parts.length === 0 ? '' : `${parts.join('\n\n')}\n\n`;
}

/** A message's text: a string, or the text parts of a list of content parts. */
function contentText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .filter((part): part is { type: 'text'; text: string } => isObject(part) && part['type'] === 'text' && typeof part['text'] === 'string')
    .map((part) => part.text)
    .join('\n');
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function bad(message: string): HttpFailure {
  return new HttpFailure(400, `not a RunAgentInput: ${message}`);
}
