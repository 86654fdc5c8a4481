/**
 * A hostile events server ending a run with an `event: error` (or `cancelled`) of many MiB:
 * the client's error quotes only the start of the server's words (300 characters of a name or
 * of data that is not JSON, 4096 of a message or a reason), cut before its control characters
 * are marked (`<U+0001>`, eight characters for one). Whole, 50 MB of `\u0001` blocked the
 * thread for minutes and made a 400-million-character message. A real HTTP server.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { lastValueFrom } from 'rxjs';
import { afterEach, describe, expect, it } from 'vitest';
import { fromRun, RunStreamError } from '../../src/client/index.js';
import { frame, RUN, runStart } from './fake-events-server.js';

const HUGE = 500_000;

let server: Server | undefined;
afterEach(async () => {
  server?.closeAllConnections();
  await new Promise((resolve) => (server ? server.close(resolve) : resolve(undefined)));
  server = undefined;
});

/** Serves the run's start, then `last`, as the event stream of every GET; resolves the base URL. */
async function serve(last: string): Promise<string> {
  server = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    res.end(frame(1, runStart) + last);
  });
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

const failure = (baseUrl: string): Promise<Error> =>
  lastValueFrom(fromRun(baseUrl, RUN, { maxRetries: 0 })).then(
    () => {
      throw new Error('expected a failure');
    },
    (e: unknown) => e as Error,
  );

describe('an event: error or cancelled of many MiB', () => {
  it('data that is not JSON: its first 300 characters are quoted, marked, and the cut is said', async () => {
    const error = await failure(await serve(`event: error\ndata: ${'\u0001'.repeat(HUGE)}\n\n`));
    expect(error).toBeInstanceOf(RunStreamError);
    expect(error.message).toBe(`run "${RUN}" ended with an error on the server: Error: ${'<U+0001>'.repeat(300)}… [${HUGE - 300} more characters]`);
  });

  it('endless empty data lines (one line break each) are cut the same way', async () => {
    const error = await failure(await serve(`event: error\n${'data:\n'.repeat(HUGE)}\n`));
    expect(error.message).toBe(`run "${RUN}" ended with an error on the server: Error: ${'<U+000A>'.repeat(300)}… [${HUGE - 1 - 300} more characters]`);
  });

  it('JSON with a huge name and message: 300 characters of the name, 4096 of the message', async () => {
    const data = JSON.stringify({ name: '\u0002'.repeat(HUGE), message: '\u0001'.repeat(HUGE) });
    const error = await failure(await serve(`event: error\ndata: ${data}\n\n`));
    expect((error as RunStreamError).serverName).toBe(`${'\u0002'.repeat(300)}… [${HUGE - 300} more characters]`);
    expect(error.message.length).toBeLessThan(100 + 8 * (300 + 4096) + 100);
    expect(error.message).toContain(`: ${'<U+0001>'.repeat(4096)}… [${HUGE - 4096} more characters]`);
  });

  it('a cancel whose reason is huge: the AbortError quotes its first 4096 characters', async () => {
    const error = await failure(await serve(`event: cancelled\ndata: ${JSON.stringify({ reason: 'r'.repeat(HUGE) })}\n\n`));
    expect(error.name).toBe('AbortError');
    expect(error.message).toBe(`The run was aborted: ${'r'.repeat(4096)}… [${HUGE - 4096} more characters]`);
  });
});
