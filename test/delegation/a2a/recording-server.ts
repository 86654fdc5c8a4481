/**
 * A bare HTTP server for the hostile-remote tests of src/delegation/a2a: it records every
 * request (method, URL, headers) and answers as the test says (a redirect, a 401, a body
 * that never ends), where {@link startScriptedRemote} plays a well-behaved A2A agent.
 *
 * @module
 */
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request the server received. */
export interface SeenRequest {
  readonly method: string;
  readonly url: string;
  readonly headers: IncomingHttpHeaders;
}

/** A running recording server. */
export interface RecordingServer {
  /** `http://127.0.0.1:<port>`. */
  readonly base: string;
  readonly seen: SeenRequest[];
  close(): Promise<void>;
}

/** Starts a server on 127.0.0.1 answering each request with `answer`. */
export async function startRecordingServer(answer: (req: IncomingMessage, res: ServerResponse) => void): Promise<RecordingServer> {
  const seen: SeenRequest[] = [];
  const server: Server = createServer((req, res) => {
    seen.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers });
    answer(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    seen,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** How much of an {@link endlessBody} went out. */
export interface Pumped {
  /** MiB written so far. */
  mib: number;
  /** Whether all of it was written (the client read it to the end). */
  finished: boolean;
}

/**
 * Answers 200 with `mib` MiB of a JSON string (as fast as the client reads it) under
 * `contentType`: a body that, for any client, never ends.
 */
export function endlessBody(res: ServerResponse, contentType: string, mib: number): Pumped {
  const chunk = Buffer.alloc(1 << 20, 'a');
  const pumped: Pumped = { mib: 0, finished: false };
  res.writeHead(200, { 'content-type': contentType });
  res.write('{"name":"');
  const pump = (): void => {
    while (!res.destroyed && pumped.mib < mib) {
      pumped.mib += 1;
      if (!res.write(chunk)) return void res.once('drain', pump);
    }
    if (res.destroyed) return;
    pumped.finished = true;
    res.end('"}');
  };
  pump();
  return pumped;
}
