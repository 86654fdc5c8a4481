/**
 * The browser `EventSource` snippet of docs/http.md, read from the guide and run as it is in
 * headless Chromium (the real `EventSource`, its own reconnection) against `runsHandler`. A
 * run whose events stop with an error ends its stream with `event: error`; a snippet that
 * closes only on `end` and `cancelled` reconnects to it for as long as the page is open, and
 * is told the same error each time. A dropped connection is an `error` event too, and must
 * still be reconnected after.
 */
import http from 'node:http';
import { readFileSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { Subject } from 'rxjs';
import { afterEach, describe, expect, it } from 'vitest';
import type { AgentEvent } from '../../src/events/index.js';
import { runsHandler, type RunsEngine } from '../../src/http/runs-handler.js';
import { MemoryEventLog } from '../../src/runs/memory-event-log.js';
import { RunRegistry } from '../../src/runs/run-registry.js';
import { chromiumPerFile, HAS_CHROMIUM } from '../support/chromium-per-file.js';
import { listen } from './http-kit.js';

const browser = chromiumPerFile();
let page: Page | undefined;
let server: http.Server | undefined;
afterEach(async () => {
  await page?.context().close();
  server?.closeAllConnections();
  await new Promise((resolve) => (server ? server.close(resolve) : resolve(undefined)));
  page = server = undefined;
});

/** The guide's `js` block after "A browser `EventSource` works too". */
function documentedSnippet(): string {
  const guide = readFileSync(new URL('../../docs/http.md', import.meta.url), 'utf8');
  const from = guide.indexOf('```js\n', guide.indexOf('A browser `EventSource` works too'));
  return guide.slice(from + '```js\n'.length, guide.indexOf('```', from + 1));
}

const RUN = 'run_failing';
const runStart: AgentEvent = { type: 'RunStart', runId: RUN, agentName: 'main', sessionId: 's', prompt: 'p' };
const delta: AgentEvent = { type: 'ReasonDelta', runId: RUN, agentName: 'main', step: 1, kind: 'text', text: 'half' };

describe.skipIf(!HAS_CHROMIUM)('docs/http.md: the browser EventSource snippet', () => {
  it('reconnects after a dropped connection, and closes for good on the server’s event: error', { timeout: 40_000 }, async () => {
    // The engine's own registry, with a run whose events we feed: it fails the way a run whose log broke does.
    const runs = new RunRegistry({ log: new MemoryEventLog(), retentionMs: 60_000, maxRetained: 10 });
    const events = new Subject<AgentEvent>();
    runs.start(RUN, 's', 'main', events);
    const engine: RunsEngine = { runs, start: () => { throw new Error('the test starts its run itself'); } };
    const handler = runsHandler(engine, { basePath: '/api', fallthrough: true });
    const streams: Array<{ lastEventId: string | undefined; req: http.IncomingMessage }> = [];
    const html = `<!doctype html><meta charset="utf-8"><script>
      const runId = ${JSON.stringify(RUN)};
      window.seqs = []; window.failures = [];
      const show = (entry) => seqs.push(entry.seq);
      const showFailure = (failure) => failures.push(failure);
    </script><script>${documentedSnippet()}</script>`;
    server = http.createServer((req, res) => {
      if (req.url?.includes('/events')) streams.push({ lastEventId: req.headers['last-event-id'] as string | undefined, req });
      if (handler(req, res)) return;
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(html);
    });
    const url = await listen(server);
    events.next(runStart);

    page = await (await browser()).newPage();
    const pageErrors: string[] = [];
    page.on('pageerror', (error) => pageErrors.push(error.message));
    await page.goto(url);
    await expect.poll(() => page!.evaluate('seqs'), { timeout: 10_000 }).toEqual([1]);

    // The network drops the stream mid-run: the page must come back after seq 1 by itself.
    streams[0]!.req.socket.destroy();
    await expect.poll(() => streams.length, { timeout: 15_000 }).toBe(2);
    expect(streams[1]!.lastEventId).toBe('1');

    // The run's events stop with an error: `event: error`, then the response ends.
    events.next(delta);
    events.error(new Error('the log of the run broke'));
    // closed (2), not waiting to reconnect (0) and be told the same error again
    await expect.poll(() => page!.evaluate('source.readyState'), { timeout: 10_000, message: 'the EventSource is closed' }).toBe(2);
    expect(streams).toHaveLength(2);
    expect(await page.evaluate('failures')).toEqual([{ name: 'Error', message: 'the log of the run broke' }]);
    expect(await page.evaluate('seqs')).toEqual([1, 2]);
    expect(pageErrors).toEqual([]);
  });
});
