import { randomUUID } from 'node:crypto';
import { isLegacyJsonRpcMethod } from '@a2a-js/sdk/compat/v0_3';

/** The JSON-RPC methods that send a message, so start a run: A2A 1.0's and 0.3's names. */
const SEND_METHODS: ReadonlySet<string> = new Set(['SendMessage', 'SendStreamingMessage', 'message/send', 'message/stream']);

/** What the handler reads of a JSON-RPC request before the SDK sees it. */
export interface A2ARequestFacts {
  /** The request id, for an error answered before the SDK (null when absent or malformed). */
  readonly id: string | number | null;
  /** Whether it uses A2A 0.3's method names (`message/send`, ...), so the 0.3 transport answers it. */
  readonly legacy: boolean;
  /** For a message: the prompt (its text parts, joined) and the conversation (its `contextId`, given or new). */
  readonly send?: { readonly prompt: string; readonly contextId: string };
}

/**
 * Reads a JSON-RPC request's id and method and, for a message, its text and `contextId`.
 * A message without a `contextId` gets one here (`ses_<uuid>`, written into the body), so
 * the run's session and the A2A context are the same id from the start.
 */
export function readA2ARequest(body: Record<string, unknown>): A2ARequestFacts {
  const id = typeof body.id === 'string' || typeof body.id === 'number' ? body.id : null;
  const method = body.method;
  const legacy = isLegacyJsonRpcMethod(method);
  if (typeof method !== 'string' || !SEND_METHODS.has(method)) return { id, legacy };
  const message = record(record(body.params)?.message);
  if (message === undefined) return { id, legacy }; // the SDK answers the malformed request
  // A message to an existing task: ours never wait for input, so the SDK refuses it (the task has ended); no run for it.
  if (typeof message.taskId === 'string' && message.taskId !== '') return { id, legacy };
  const given = message.contextId;
  const contextId = typeof given === 'string' && given !== '' ? given : `ses_${randomUUID()}`;
  message.contextId = contextId;
  const parts = Array.isArray(message.parts) ? message.parts : [];
  const prompt = parts.flatMap((part) => (typeof record(part)?.text === 'string' ? [record(part)!.text as string] : [])).join('\n');
  return { id, legacy, send: { prompt, contextId } };
}

function record(value: unknown): Record<string, unknown> | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
}
