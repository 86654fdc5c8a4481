/** A small server-sent-events client over `http` for the SSE tests. */
import http, { type IncomingHttpHeaders, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One message (or comment) as the client parsed it. */
export interface SseMessage {
  readonly id?: string;
  readonly event?: string;
  readonly data?: string;
  readonly comment?: string;
}

export interface SseClient {
  readonly statusCode: number;
  readonly headers: IncomingHttpHeaders;
  readonly messages: SseMessage[];
  /** Resolves with the first message (already received or future) that matches. */
  waitFor(match: (m: SseMessage) => boolean): Promise<SseMessage>;
  /** Resolves when the server ends the response. */
  readonly ended: Promise<void>;
  /** Drops the connection, as a closed browser tab would. */
  disconnect(): void;
}

function parseBlock(block: string): SseMessage {
  const message: { id?: string; event?: string; data?: string; comment?: string } = {};
  for (const line of block.split('\n')) {
    if (line.startsWith(':')) message.comment = line.slice(1).trim();
    else {
      const colon = line.indexOf(':');
      const field = line.slice(0, colon);
      const value = line.slice(colon + 1).replace(/^ /, '');
      if (field === 'id' || field === 'event' || field === 'data') message[field] = value;
    }
  }
  return message;
}

/** Connects to `url` and parses the event stream as it arrives (after `pauseMs`, when given). */
export function connect(url: string, options: { method?: string; body?: string; pauseMs?: number } = {}): Promise<SseClient> {
  return new Promise((resolve, reject) => {
    const request = http.request(url, { method: options.method ?? 'GET' }, (response: IncomingMessage) => {
      const messages: SseMessage[] = [];
      const waiting: Array<{ match: (m: SseMessage) => boolean; resolve: (m: SseMessage) => void }> = [];
      let buffer = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => {
        buffer += chunk;
        let end = buffer.indexOf('\n\n');
        while (end !== -1) {
          const message = parseBlock(buffer.slice(0, end));
          buffer = buffer.slice(end + 2);
          messages.push(message);
          for (const w of [...waiting]) if (w.match(message)) { waiting.splice(waiting.indexOf(w), 1); w.resolve(message); }
          end = buffer.indexOf('\n\n');
        }
      });
      if (options.pauseMs !== undefined) {
        // a slow reader: nothing is read for a while, so the server's writes back up
        response.pause();
        setTimeout(() => response.resume(), options.pauseMs);
      }
      const ended = new Promise<void>((done) => response.on('end', done));
      resolve({
        statusCode: response.statusCode ?? 0,
        headers: response.headers,
        messages,
        ended,
        waitFor: (match) => {
          const found = messages.find(match);
          return found ? Promise.resolve(found) : new Promise((r) => waiting.push({ match, resolve: r }));
        },
        disconnect: () => request.destroy(),
      });
    });
    request.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code !== 'ECONNRESET') reject(error);
    });
    request.end(options.body);
  });
}

/** Starts a server on 127.0.0.1 and returns its base URL. */
export function listen(server: Server): Promise<string> {
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`));
  });
}

/** Closes a server and every connection it still has. */
export function close(server: Server): Promise<void> {
  server.closeAllConnections();
  return new Promise((resolve) => server.close(() => resolve()));
}
