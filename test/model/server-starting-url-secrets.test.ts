/**
 * The `model-server-starting` warning names the server it waits for, without a secret its
 * base URL carries (`user:pass@`, `?key=`): the warning reaches `run --json`, the runs API,
 * SSE and stored event logs. The address is shown as `shownUrl` shows every one.
 */
import { createServer } from 'node:net';
import { VirtualTimeScheduler } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { OpenAIChatModel } from '../../src/model/openai-chat-model.js';
import { shownUrl } from '../../src/text/shown-url.js';
import { record } from '../support/collect-events.js';

/** A port nothing listens on: each request is refused, as while a server starts. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe('the server-starting warning and the base URL', () => {
  it('names the server by scheme, host and path only', async () => {
    const port = await closedPort();
    const scheduler = new VirtualTimeScheduler();
    const model = new OpenAIChatModel({ model: 'm', baseURL: `http://alice:s3cretPass@127.0.0.1:${port}/v1/?key=s3cretKey`, apiKey: 'k', maxRetries: 1, retryBudgetMs: 3_000, scheduler });
    const run = record(model.stream({ messages: [{ role: 'user', content: 'hello' }] }));
    let finished = false;
    void run.done.then(() => (finished = true));
    for (let turn = 0; turn < 2_000 && !finished; turn++) {
      scheduler.flush(); // each wait at once
      await new Promise((resolve) => setTimeout(resolve, 2));
    }
    expect(finished).toBe(true);
    const warnings = run.events.filter((c) => c.type === 'warning');
    expect(warnings).toEqual([expect.objectContaining({ code: 'model-server-starting' })]);
    expect(JSON.stringify(warnings)).toContain(`for the server at http://127.0.0.1:${port}/v1 to start`);
    const said = JSON.stringify(run.events) + String((run.error as Error | undefined)?.message);
    expect(said).not.toMatch(/alice|s3cret/);
  });

  it('shownUrl leaves out credentials, query and fragment, parsed or not', () => {
    expect(shownUrl('https://u:p@ss@host:8443/v1?key=abc#frag')).toBe('https://host:8443/v1');
    expect(shownUrl('http://10.0.0.5:8080/v1')).toBe('http://10.0.0.5:8080/v1');
    expect(shownUrl('redis://:pw@cache:6379/0?password=x')).toBe('redis://cache:6379/0');
    expect(shownUrl('//u:x@y@host/a?b')).toBe('//host/a'); // no scheme: no parser reads it
    expect(shownUrl('not a url?key=1')).toBe('not a url');
  });
});
