/**
 * A fake OpenAI-compatible chat completions server on 127.0.0.1, for end-to-end tests
 * that drive the real `openai` client. Replies are scripted per request (`FakeReply`);
 * every request is recorded, including retries and aborted ones.
 *
 * @module
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { answerProps, contextRefusal } from './fake-openai/context-size.js';
import { defaultReply } from './fake-openai/default-reply.js';
import { errorBody } from './fake-openai/error-body.js';
import { sendJson, type Exchange, type MutableRecordedRequest } from './fake-openai/exchange.js';
import { parseChatBody, readBody } from './fake-openai/request-body.js';
import { sendReply } from './fake-openai/send-reply.js';
import type { FakeHandler, FakeReply, FakeServerOptions, RecordedRequest } from './fake-openai/types.js';
import { Waiters } from './fake-openai/waiters.js';

export type * from './fake-openai/types.js';
export { FakeServerWaitError } from './fake-openai/fake-server-wait-error.js';
export { estimateUsage } from './fake-openai/usage-estimate.js';
export { defaultReply } from './fake-openai/default-reply.js';

const CHAT_PATH = '/v1/chat/completions';
const DEFAULT_WAIT_MS = 5_000;

/**
 * The fake server. Replies come from the queue (`enqueue`, `replies`) first, then from the
 * handler, then `defaultReply` (an echo of the last user message).
 *
 * @example
 * ```ts
 * const server = await FakeOpenAIServer.start({ replies: [{ text: 'hello' }] });
 * const client = new OpenAI({ baseURL: server.baseURL, apiKey: 'test' });
 * await client.chat.completions.create({ model: 'm', messages: [{ role: 'user', content: 'hi' }] });
 * await server.close();
 * ```
 */
export class FakeOpenAIServer {
  readonly #server: Server;
  readonly #queue: FakeReply[];
  readonly #records: MutableRecordedRequest[] = [];
  readonly #waiters = new Waiters();
  #handler: FakeHandler | undefined;
  readonly #contextSize: number | undefined;
  #propsRequests = 0;
  #baseURL = '';
  #inFlight = 0;
  #peak = 0;
  #closing: Promise<void> | undefined;

  private constructor(options: FakeServerOptions) {
    this.#queue = [...(options.replies ?? [])];
    this.#handler = options.handler;
    this.#contextSize = options.contextSize;
    this.#server = createServer((req, res) => void this.#onRequest(req, res));
    // A client that sends garbage must not take the server down.
    this.#server.on('clientError', (_error, socket) => socket.destroy());
  }

  /** Starts a server on a free port of 127.0.0.1 (or `options.port`). */
  static async start(options: FakeServerOptions = {}): Promise<FakeOpenAIServer> {
    const server = new FakeOpenAIServer(options);
    await server.#listen(options.port ?? 0);
    return server;
  }

  /** `http://127.0.0.1:<port>/v1`, ready for `new OpenAI({ baseURL })`. */
  get baseURL(): string {
    return this.#baseURL;
  }

  /** Every request received so far, in arrival order, updated live. */
  get requests(): readonly RecordedRequest[] {
    return this.#records;
  }

  /** How many `GET /props` requests arrived (they are not in `requests`). */
  get propsRequests(): number {
    return this.#propsRequests;
  }

  /** Requests whose response has not ended yet. */
  get inFlight(): number {
    return this.#inFlight;
  }

  /** The most requests in flight at once since start or the last `resetPeak()`. */
  get peakInFlight(): number {
    return this.#peak;
  }

  /** Whether the server still accepts connections. */
  get listening(): boolean {
    return this.#server.listening;
  }

  /** Restarts peak tracking from the current in-flight count. */
  resetPeak(): void {
    this.#peak = this.#inFlight;
  }

  /** Queues replies; they are used, in order, before the handler. */
  enqueue(...replies: FakeReply[]): void {
    this.#queue.push(...replies);
  }

  /** Replaces the handler asked once the queue is empty. */
  setHandler(handler: FakeHandler): void {
    this.#handler = handler;
  }

  /** Resolves once `count` requests have arrived; rejects after `timeoutMs` or on `close()`. */
  waitForRequests(count: number, timeoutMs = DEFAULT_WAIT_MS): Promise<void> {
    return this.#waiters.until(
      () => this.#records.length >= count,
      () => `expected ${count} request(s) at the fake OpenAI server, got ${this.#records.length}`,
      timeoutMs,
    );
  }

  /** Resolves with request `index` once its response completed or its connection closed. */
  async waitForClosed(index: number, timeoutMs = DEFAULT_WAIT_MS): Promise<RecordedRequest> {
    const ended = (): boolean => this.#records[index]?.endedAt !== undefined;
    await this.#waiters.until(
      ended,
      () => `request #${index} at the fake OpenAI server did not end (${this.#records.length} request(s) arrived)`,
      timeoutMs,
    );
    return this.#records[index] as RecordedRequest;
  }

  /**
   * Stops listening, destroys every connection (open requests are recorded aborted),
   * rejects pending waits, and resolves once nothing is left running. Idempotent.
   */
  close(): Promise<void> {
    this.#closing ??= new Promise<void>((resolve) => {
      this.#server.close(() => resolve());
      this.#server.closeAllConnections();
    }).then(() => this.#waiters.rejectAll('the fake OpenAI server was closed'));
    return this.#closing;
  }

  #listen(port: number): Promise<void> {
    return new Promise((resolve, reject) => {
      this.#server.once('error', reject);
      this.#server.listen(port, '127.0.0.1', () => {
        this.#server.off('error', reject);
        this.#baseURL = `http://127.0.0.1:${(this.#server.address() as AddressInfo).port}/v1`;
        resolve();
      });
    });
  }

  async #onRequest(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (req.method === 'GET' && new URL(req.url ?? '/', 'http://localhost').pathname === '/props') {
      this.#propsRequests += 1;
      answerProps(res, this.#contextSize);
      return;
    }
    const controller = new AbortController();
    let record: MutableRecordedRequest | undefined;
    res.on('finish', () => {
      if (record) record.completed = true;
    });
    res.on('close', () => {
      controller.abort();
      if (record) this.#ended(record);
    });
    res.on('error', () => controller.abort());

    let rawBody: string;
    try {
      rawBody = await readBody(req);
    } catch {
      return; // the connection broke before the request was complete: nothing to answer
    }
    record = this.#record(req, rawBody);
    const exchange: Exchange = { res, signal: controller.signal, record };
    if (controller.signal.aborted) return this.#ended(record);
    try {
      await this.#answer(exchange);
    } catch (error) {
      if (!res.headersSent) sendJson(exchange, 500, errorBody(500, messageOf(error)));
      else res.destroy();
    }
  }

  async #answer(exchange: Exchange): Promise<void> {
    const { record } = exchange;
    if (record.method !== 'POST' || record.path !== CHAT_PATH) {
      sendJson(exchange, 404, errorBody(404, `Invalid URL (${record.method} ${record.path})`));
      return;
    }
    const parsed = parseChatBody(record.rawBody);
    record.body = parsed.body;
    record.stream = parsed.body.stream === true;
    if (!parsed.ok) {
      sendJson(exchange, 400, errorBody(400, parsed.message));
      return;
    }
    const refusal = contextRefusal(parsed.body, this.#contextSize);
    if (refusal) {
      sendJson(exchange, 400, refusal);
      return;
    }
    let reply: FakeReply;
    try {
      reply = this.#queue.shift() ?? (this.#handler ? await this.#handler(record) : defaultReply(record));
    } catch (error) {
      // A broken handler is a bug in the test: fail fast instead of letting the client retry it.
      sendJson(exchange, 500, errorBody(500, `fake handler failed: ${messageOf(error)}`), { 'x-should-retry': 'false' });
      return;
    }
    record.reply = reply;
    await sendReply(reply, exchange, {
      requestIndex: record.index,
      model: parsed.body.model ?? '',
      created: Math.floor(record.startedAt / 1000),
      includeUsage: record.stream && parsed.body.stream_options?.include_usage === true,
    });
  }

  #record(req: IncomingMessage, rawBody: string): MutableRecordedRequest {
    const record: MutableRecordedRequest = {
      index: this.#records.length,
      method: req.method ?? 'GET',
      path: new URL(req.url ?? '/', 'http://localhost').pathname,
      headers: { ...req.headers },
      body: {},
      rawBody,
      stream: false,
      aborted: false,
      completed: false,
      startedAt: Date.now(),
    };
    this.#records.push(record);
    this.#inFlight += 1;
    this.#peak = Math.max(this.#peak, this.#inFlight);
    this.#waiters.notify();
    return record;
  }

  #ended(record: MutableRecordedRequest): void {
    if (record.endedAt !== undefined) return;
    record.aborted = !record.completed;
    record.endedAt = Date.now();
    this.#inFlight -= 1;
    this.#waiters.notify();
  }
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
