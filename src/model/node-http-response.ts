import { errnoOf } from '../errors/errno-of.js';
import type { IncomingMessage } from 'node:http';
import { Readable } from 'node:stream';
import { RawHeaders } from './raw-headers.js';

/**
 * The body of a response that came from the `node:http` transport: the decoded Node stream,
 * read directly (no web stream in between), and how to word its failures.
 */
export interface NodeBody {
  /** The body as it arrives, decompressed. */
  readonly stream: Readable;
  /** What a failure of `stream` means to a user: a connection that closed mid-body reads as fetch's "terminated: other side closed". */
  failure(error: unknown): Error;
}

/**
 * A `Response` as the `openai` client uses it (status, ok, headers, url, text/json for error
 * bodies, body), over a Node `IncomingMessage`. The web `body` stream is made only when
 * somebody asks for it; rxharness's own reader takes the Node stream ({@link nodeBodyOf}) and
 * so skips web streams' per-chunk copies and promises.
 */
export class NodeHttpResponse {
  /** The HTTP status. */
  readonly status: number;
  /** The status line's reason phrase. */
  readonly statusText: string;
  /** The response headers, read from the message's raw list (see {@link RawHeaders}). */
  readonly headers: Headers;
  /** The URL asked (redirects are not followed). */
  readonly url: string;
  /** Always false: redirects are not followed. */
  readonly redirected = false;
  /** As fetch's. */
  readonly type = 'basic';
  readonly #message: IncomingMessage;
  readonly #decoded: Readable;
  #used = false;
  #web: ReadableStream<Uint8Array> | undefined;

  constructor(message: IncomingMessage, decoded: Readable, url: string) {
    this.#message = message;
    this.#decoded = decoded;
    this.status = message.statusCode ?? 0;
    this.statusText = message.statusMessage ?? '';
    this.url = url;
    // Read from the raw list the message keeps anyway, not copied into a `Headers` that the reply would keep too.
    this.headers = new RawHeaders(message.rawHeaders);
  }

  /** Whether the status is 2xx. */
  get ok(): boolean {
    return this.status >= 200 && this.status < 300;
  }

  /** Whether the body has been taken (as a stream or read whole). */
  get bodyUsed(): boolean {
    return this.#used;
  }

  /** The body as a web stream, made on first use (the openai client's own stream reader, a custom caller). */
  get body(): ReadableStream<Uint8Array> {
    if (!this.#web) {
      this.#used = true;
      this.#web = Readable.toWeb(this.#decoded) as ReadableStream<Uint8Array>;
    }
    return this.#web;
  }

  /** The Node body, once: `undefined` when it was already taken. */
  takeNodeBody(): NodeBody | undefined {
    if (this.#used) return undefined;
    this.#used = true;
    return { stream: this.#decoded, failure: (error) => this.#failure(error) };
  }

  /** The whole body as UTF-8 text (a byte-order mark dropped, as fetch does). */
  async text(): Promise<string> {
    return new TextDecoder().decode(await this.#bytes());
  }

  /** The whole body parsed as JSON. */
  async json(): Promise<unknown> {
    return JSON.parse(await this.text()) as unknown;
  }

  /** The whole body's bytes. */
  async arrayBuffer(): Promise<ArrayBuffer> {
    const bytes = await this.#bytes();
    return bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
  }

  /** Not supported: nothing in rxharness or the openai client clones a response. */
  clone(): never {
    throw new TypeError('a response of the node:http transport cannot be cloned');
  }

  async #bytes(): Promise<Buffer> {
    const body = this.takeNodeBody();
    if (!body) throw new TypeError('Body is unusable: Body has already been read');
    const parts: Buffer[] = [];
    try {
      for await (const part of body.stream) parts.push(part as Buffer);
    } catch (error) {
      throw body.failure(error);
    }
    return Buffer.concat(parts);
  }

  #failure(error: unknown): Error {
    // A body the server's side cut (its socket closed before the last byte): said the way
    // fetch says it, the words users and tests know. A decoder's own error stays itself.
    if (!this.#message.complete) {
      return new TypeError('terminated', { cause: Object.assign(new Error('other side closed'), { code: errnoOf(error) }) });
    }
    return error instanceof Error ? error : new Error(String(error));
  }
}

/** The Node body of a response of the `node:http` transport, unread; `undefined` for any other response. */
export function nodeBodyOf(response: Response): NodeBody | undefined {
  const candidate: unknown = response;
  return candidate instanceof NodeHttpResponse ? candidate.takeNodeBody() : undefined;
}
