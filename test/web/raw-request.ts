/**
 * One HTTP request through `node:http`, which (unlike fetch) sends any `Host` header, for
 * the tests of the demo server's guards.
 *
 * @module
 */
import http, { type IncomingHttpHeaders } from 'node:http';

/** What came back. */
export interface RawAnswer {
  readonly status: number;
  readonly headers: IncomingHttpHeaders;
  readonly body: string;
}

/** Sends `method url` with `headers` (and a JSON `body`, if given); resolves the whole answer. */
export function rawRequest(url: string, init: { method?: string; headers?: Record<string, string>; body?: unknown } = {}): Promise<RawAnswer> {
  const body = init.body === undefined ? undefined : JSON.stringify(init.body);
  const headers = { ...(body !== undefined ? { 'content-type': 'application/json' } : {}), ...init.headers };
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method: init.method ?? 'GET', headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}
