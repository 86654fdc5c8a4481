import type { IncomingMessage } from 'node:http';
import { HttpFailure } from './http-failure.js';
import { MAX_JSON_DEPTH, nestsDeeper, valueNestsDeeper } from '../validation/json-depth.js';

/** A body a framework has already read and parsed (Express's `express.json()`). */
interface ParsedRequest extends IncomingMessage {
  readonly body?: unknown;
}

/**
 * Reads the request's JSON body, at most `maxBytes` of it, as a JSON object. Refuses, as an
 * {@link HttpFailure}: a content type other than `application/json` (`415`: a cross-site form
 * cannot send that type without the browser asking the server first, so a page elsewhere
 * cannot start runs or approve calls here), a body over the cap (`413`, as soon as it is
 * known: from `content-length`, or while reading), and anything that is not one JSON object
 * (`400`), and a body that has not arrived in full within `timeoutMs` (`408`: a client that
 * trickles a body in holds its memory and a socket; the connection is closed). A body a
 * framework already parsed (Express with `express.json()`) is used as it is, once its depth is checked (`400`).
 *
 * @example
 * ```ts
 * const body = await readJsonBody(req, 1024 * 1024, 10_000); // { prompt: 'hi' }
 * ```
 */
export async function readJsonBody(req: IncomingMessage, maxBytes: number, timeoutMs = 10_000): Promise<Record<string, unknown>> {
  assertJsonRequest(req);
  const parsed = (req as ParsedRequest).body;
  if (req.readableEnded && parsed !== undefined) return asObject(typeof parsed === 'string' || Buffer.isBuffer(parsed) ? parse(String(parsed)) : shallowEnough(parsed));
  if (req.readableEnded) {
    // read by something mounted before the handler (Fastify's body parser) and not kept on `req.body`
    throw new HttpFailure(500, 'the request body was already read by another handler: mount runsHandler before any body parser (see docs/http.md)');
  }
  const declared = Number(req.headers['content-length']);
  if (declared > maxBytes) throw tooLarge(maxBytes);
  return asObject(parse(await readText(req, maxBytes, timeoutMs)));
}

/**
 * Refuses (`415`) a request not sent as `application/json`: the one check that makes a
 * request one no page of another site can send without the browser asking first (a form or a
 * `no-cors` fetch sends only simple types). Also for a `POST` that carries no body.
 *
 * @throws HttpFailure 415 naming the type that came
 */
export function assertJsonRequest(req: IncomingMessage): void {
  const type = (req.headers['content-type'] ?? '').split(';', 1)[0]!.trim().toLowerCase();
  if (type !== 'application/json') {
    throw new HttpFailure(415, `the body must be JSON, sent with "content-type: application/json" (got ${JSON.stringify(type || 'none')})`);
  }
}

function readText(req: IncomingMessage, maxBytes: number, timeoutMs: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const timer = setTimeout(() => {
      cleanup();
      chunks.length = 0;
      // the connection closes after the answer: what is still on its way is not read
      reject(new HttpFailure(408, `the request body did not arrive within ${timeoutMs} ms`, { connection: 'close' }));
    }, timeoutMs);
    const onData = (chunk: Buffer): void => {
      size += chunk.length;
      if (size > maxBytes) {
        cleanup();
        // stop holding what came: the rest of the body is dropped with the connection
        chunks.length = 0;
        reject(tooLarge(maxBytes));
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = (): void => {
      cleanup();
      resolve(Buffer.concat(chunks).toString('utf8'));
    };
    const onGone = (): void => {
      cleanup();
      reject(new Error('the client went away before its request body ended'));
    };
    const cleanup = (): void => {
      clearTimeout(timer);
      req.off('data', onData).off('end', onEnd).off('error', onGone).off('close', onGone);
    };
    req.on('data', onData).on('end', onEnd).on('error', onGone).on('close', onGone);
  });
}

function parse(text: string): unknown {
  if (text.trim() === '') throw new HttpFailure(400, 'the body is empty: send a JSON object');
  let value: unknown;
  try {
    value = JSON.parse(text) as unknown;
  } catch (error) {
    throw new HttpFailure(400, `the body is not valid JSON: ${(error as Error).message}`);
  }
  // What reads the body walks it recursively: 150,000 nested [ would overflow the stack there (a 500).
  if (nestsDeeper(text)) throw new HttpFailure(400, `the body nests arrays and objects more than ${MAX_JSON_DEPTH} deep`);
  return value;
}

/** A value a framework parsed (`express.json()` reads any depth), checked for depth as {@link parse} checks text. */
function shallowEnough(value: unknown): unknown {
  if (valueNestsDeeper(value)) throw new HttpFailure(400, `the body nests arrays and objects more than ${MAX_JSON_DEPTH} deep`);
  return value;
}

function asObject(value: unknown): Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new HttpFailure(400, `the body must be a JSON object, got ${Array.isArray(value) ? 'an array' : JSON.stringify(value)}`);
  }
  return value as Record<string, unknown>;
}

function tooLarge(maxBytes: number): HttpFailure {
  // the connection closes after the answer: the rest of the body is not worth reading
  return new HttpFailure(413, `the body is larger than ${maxBytes} bytes`, { connection: 'close' });
}
