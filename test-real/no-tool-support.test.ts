/**
 * A llama-server started without tool support (no `--jinja`) refuses every request that
 * offers tools (issue 11, fix 9): the run must fail at once, unretried, saying so plainly;
 * and an engine with no tools sends none, so it works on such a server.
 */
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { LlamaServer } from './support/llama-server.js';
import { describeRun, llamaModel, realEngine, runEvents, theRunEnd, Workspace } from './support/real-engine.js';
import { retryParserErrors } from './support/parser-errors.js';
import { RecordingProxy } from './support/recording-proxy.js';
import { EOS } from './support/templates.js';

const llama = inject('llama');
const dir = 'dir' in llama ? llama.dir : '';

describe.skipIf(dir === '')('a llama-server without tool support (no --jinja)', () => {
  let server: LlamaServer | undefined;
  let proxy: RecordingProxy | undefined;
  let workspace: Workspace;
  beforeAll(async () => {
    workspace = new Workspace();
    server = await LlamaServer.start(dir, undefined, 1);
    proxy = await RecordingProxy.start(server.url);
  });
  afterAll(async () => {
    await proxy?.close();
    await server?.stop();
    workspace?.remove();
  });

  it('a run that offers tools fails once, with the server\'s words and what to do about it', async () => {
    proxy!.clear();
    const engine = realEngine(workspace, { model: llamaModel(proxy!.baseURL, { maxTokens: 8 }) });
    const events = await runEvents(engine.stream('List the files.'));
    await proxy!.settled();
    const [exchange] = proxy!.chats;
    expect(exchange?.status, exchange?.raw).toBe(500);
    expect(exchange?.error).toBe('tools param requires --jinja flag');
    expect(proxy!.chats, 'the same request would fail again: not retried').toHaveLength(1);
    const end = theRunEnd(events);
    expect(end.abnormal).toBe(true);
    expect(end.error).toContain('HTTP 500: tools param requires --jinja flag');
    expect(end.error).toMatch(/this server seems not to accept them.*--jinja/);
  });

  it('an engine with no tools sends none, and works', () => retryParserErrors(async (watch) => {
    proxy!.clear();
    watch(proxy!);
    const model = llamaModel(proxy!.baseURL, { maxTokens: 16 }, { logit_bias: { [EOS]: 2.5 } });
    const engine = realEngine(workspace, { model, keep: [] });
    const events = await runEvents(engine.stream('Say hello.'));
    await proxy!.settled();
    expect(proxy!.chats[0]?.body.tools).toBeUndefined();
    expect(theRunEnd(events).abnormal, describeRun(events)).toBe(false);
  }));
});
