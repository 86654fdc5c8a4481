/**
 * A tiny logging proxy in front of a real server: it passes every request and response
 * through unchanged (streamed as they arrive; a client that leaves aborts the upstream
 * request) and records what went over the wire. The tests compare what rxharness reports
 * (metrics, text, errors) with what the server really sent, read here independently of
 * rxharness's own SSE reader.
 *
 * @module
 */
import { createServer, request as httpRequest, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { once } from 'node:events';
import { setTimeout as delay } from 'node:timers/promises';

/** Usage as the server sent it. */
export interface WireUsage {
  readonly prompt_tokens: number;
  readonly completion_tokens: number;
  readonly total_tokens: number;
}

/** One request through the proxy, filled in as its response arrives. */
export interface ProxiedExchange {
  readonly path: string;
  /** The request body, parsed (`{}` when it was not JSON). */
  readonly body: Record<string, unknown>;
  status?: number;
  /** The response body exactly as received (SSE text for a stream); complete once `ended`. */
  raw: string;
  /** The response body's bytes as received. */
  readonly bytes: Buffer[];
  /** The `usage` of the stream's usage chunk (or of a JSON answer). */
  usage?: WireUsage;
  /** The `delta.content` pieces joined: the text the server streamed. */
  text: string;
  /** The `delta.reasoning_content` pieces joined. */
  thinking: string;
  /** How many tool calls the server streamed (distinct `index`es). */
  toolCalls: number;
  /** The last `finish_reason` the server sent. */
  finishReason?: string;
  /** The message of an error the server reported, in an error status body or inside a 200 stream. */
  error?: string;
  /** Whether the response ended (completely, or cut by either side). */
  ended: boolean;
}

/** The proxy; `baseURL` goes where the server's `/v1` URL would. */
export class RecordingProxy {
  /** Every exchange, in arrival order. */
  readonly exchanges: ProxiedExchange[] = [];

  private constructor(
    private readonly server: Server,
    /** `http://127.0.0.1:<port>/v1`. */
    readonly baseURL: string,
  ) {}

  /** Starts a proxy to `target` (e.g. `http://127.0.0.1:8080`) on a free loopback port. */
  static async start(target: string): Promise<RecordingProxy> {
    let proxy: RecordingProxy | undefined;
    const server = createServer((req, res) => void proxy?.forward(target, req, res));
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    proxy = new RecordingProxy(server, `http://127.0.0.1:${(server.address() as { port: number }).port}/v1`);
    return proxy;
  }

  /** The chat completion exchanges only. */
  get chats(): ProxiedExchange[] {
    return this.exchanges.filter((e) => e.path.endsWith('/chat/completions'));
  }

  /** The sum of the usage the server reported over the chat exchanges. */
  usageTotal(): { promptTokens: number; completionTokens: number; totalTokens: number } {
    const sum = { promptTokens: 0, completionTokens: 0, totalTokens: 0 };
    for (const { usage } of this.chats) {
      sum.promptTokens += usage?.prompt_tokens ?? 0;
      sum.completionTokens += usage?.completion_tokens ?? 0;
      sum.totalTokens += usage?.total_tokens ?? 0;
    }
    return sum;
  }

  /** Resolves once every exchange so far has ended (its usage is read then); rejects after `timeoutMs`. */
  async settled(timeoutMs = 5_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (this.exchanges.some((e) => !e.ended)) {
      if (Date.now() > deadline) throw new Error(`the recording proxy still has ${this.exchanges.filter((e) => !e.ended).length} open exchange(s)`);
      await delay(10);
    }
  }

  /** Forgets what was recorded (between two checks on one server). */
  clear(): void {
    this.exchanges.length = 0;
  }

  /** Stops listening and cuts open connections. */
  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private async forward(target: string, req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const text = Buffer.concat(chunks).toString('utf8');
    const exchange: ProxiedExchange = { path: req.url ?? '/', body: parseObject(text), raw: '', bytes: [], text: '', thinking: '', toolCalls: 0, ended: false };
    this.exchanges.push(exchange);
    const upstream = httpRequest(`${target}${req.url ?? '/'}`, { method: req.method, headers: { ...req.headers, host: new URL(target).host }, agent: false }, (answer) => {
      exchange.status = answer.statusCode;
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.on('data', (chunk: Buffer) => {
        exchange.bytes.push(chunk);
        res.write(chunk);
      });
      answer.on('end', () => {
        finish(exchange);
        res.end();
      });
      answer.on('close', () => finish(exchange));
    });
    upstream.on('error', () => {
      finish(exchange);
      res.destroy();
    });
    // The client went away (an unsubscribe): the server must see its connection close too.
    res.on('close', () => upstream.destroy());
    upstream.end(text);
  }
}

/** Reads usage, finish reason and errors from the recorded body, SSE or JSON. */
function finish(exchange: ProxiedExchange): void {
  if (exchange.ended) return;
  exchange.ended = true;
  // Decoded once, whole: a multi-byte character may straddle two chunks.
  exchange.raw = Buffer.concat(exchange.bytes).toString('utf8');
  const calls = new Set<number>();
  const payloads = exchange.raw.includes('data:')
    ? exchange.raw.split('\n').filter((line) => line.startsWith('data:')).map((line) => line.slice(5).trim()).filter((d) => d !== '[DONE]')
    : [exchange.raw];
  for (const payload of payloads) {
    const chunk = parseObject(payload) as WireChunk;
    if (chunk.usage) exchange.usage = chunk.usage;
    if (chunk.error) exchange.error = chunk.error.message ?? JSON.stringify(chunk.error);
    const choice = chunk.choices?.[0];
    if (choice?.finish_reason) exchange.finishReason = choice.finish_reason;
    exchange.text += choice?.delta?.content ?? '';
    exchange.thinking += choice?.delta?.reasoning_content ?? '';
    for (const call of choice?.delta?.tool_calls ?? []) calls.add(call.index ?? calls.size);
  }
  exchange.toolCalls = calls.size;
}

/** The fields of a chunk (or a JSON answer's error) the proxy reads. */
interface WireChunk {
  readonly usage?: WireUsage;
  readonly error?: { readonly message?: string };
  readonly choices?: ReadonlyArray<{
    readonly finish_reason?: string | null;
    readonly delta?: { readonly content?: string | null; readonly reasoning_content?: string | null; readonly tool_calls?: ReadonlyArray<{ readonly index?: number }> };
  }>;
}

function parseObject(text: string): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}
