/**
 * A model server that answers every request with a 200 and then writes its body a piece at a
 * time, a gap apart: a JSON body arriving slowly, keep-alives sent forever, lines that are no
 * reply. The fake OpenAI server encodes whole replies; the idle watchdog's attacks need the
 * bytes and the gaps chosen one by one. It records whether the client closed each response
 * before its end (the request aborted).
 *
 * @module
 */
import { createServer, type OutgoingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** What {@link startTrickleServer} writes: piece `i` is written `gapMs` after piece `i - 1`. */
export interface Trickle {
  readonly headers: OutgoingHttpHeaders;
  /** Milliseconds between two pieces. */
  readonly gapMs: number;
  /** Piece `i` (from 0): a string is written, `undefined` ends the response, `null` leaves it open and silent. */
  piece(i: number): string | undefined | null;
}

/** A running trickle server. */
export interface TrickleServer {
  /** `http://127.0.0.1:<port>/v1`. */
  readonly baseURL: string;
  /** Requests received. */
  readonly requests: number;
  /** Responses whose connection the client closed before they ended. */
  readonly closedByClient: number;
  /** Stops the server and every connection it still has. */
  close(): Promise<void>;
}

/** Starts a server on 127.0.0.1 that answers every request with `trickle`. */
export async function startTrickleServer(trickle: Trickle): Promise<TrickleServer> {
  let requests = 0;
  let closedByClient = 0;
  const server: Server = createServer((req, res) => {
    requests++;
    req.resume();
    res.writeHead(200, trickle.headers);
    res.flushHeaders();
    let timer: NodeJS.Timeout | undefined;
    res.once('close', () => {
      clearTimeout(timer);
      if (!res.writableEnded) closedByClient++;
    });
    const next = (i: number): void => {
      const piece = trickle.piece(i);
      if (piece === null || res.destroyed) return;
      if (piece === undefined) return void res.end();
      res.write(piece);
      timer = setTimeout(() => next(i + 1), trickle.gapMs);
    };
    next(0);
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  return {
    baseURL: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
    get requests() {
      return requests;
    },
    get closedByClient() {
      return closedByClient;
    },
    close: () =>
      new Promise<void>((done) => {
        server.closeAllConnections();
        server.close(() => done());
      }),
  };
}
