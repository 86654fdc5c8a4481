import type { IncomingMessage } from 'node:http';
import type { FakeRequestBody } from './types.js';

/** A parsed body, or the 400 message to answer with. */
export type ParsedBody =
  | { readonly ok: true; readonly body: FakeRequestBody }
  | { readonly ok: false; readonly body: FakeRequestBody; readonly message: string };

/** Reads the whole request body as UTF-8 text. Rejects when the connection breaks. */
export function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const parts: Buffer[] = [];
    req.on('data', (part: Buffer) => parts.push(part));
    req.on('end', () => resolve(Buffer.concat(parts).toString('utf8')));
    req.on('error', reject);
  });
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Parses a chat completion body and checks the two fields every request needs, with the
 * messages OpenAI answers when they are wrong.
 *
 * @example
 * ```ts
 * parseChatBody('{"model":"m","messages":[]}'); // { ok: true, body: { model: 'm', messages: [] } }
 * ```
 */
export function parseChatBody(raw: string): ParsedBody {
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    return {
      ok: false,
      body: {},
      message: 'We could not parse the JSON body of your request. The API expects a JSON payload, but what was sent was not valid JSON.',
    };
  }
  if (!isObject(value)) {
    return { ok: false, body: {}, message: 'The request body must be a JSON object.' };
  }
  const body = value as FakeRequestBody;
  if (typeof body.model !== 'string' || body.model === '') {
    return { ok: false, body, message: 'You must provide a model parameter.' };
  }
  if (!Array.isArray(body.messages)) {
    return { ok: false, body, message: "Missing required parameter: 'messages'." };
  }
  return { ok: true, body };
}
