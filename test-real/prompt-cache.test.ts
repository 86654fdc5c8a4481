/**
 * Prompts the server can cache, measured on a real llama-server (issue 28.2). llama.cpp
 * reuses a slot's KV cache for the longest common token prefix of the new prompt and the
 * last one; its response says how much it reused (`timings.cache_n`: prompt tokens taken
 * from the cache; `timings.prompt_n`: prompt tokens it had to process). A harness that
 * sends a byte-identical prefix on every step and every turn gets nearly all of each prompt
 * from the cache; one that puts anything changing ahead of the history gets almost nothing.
 *
 * The share reported (docs/performance.md) is `cache_n / (cache_n + prompt_n)` per request
 * after the first: the fraction of that request's prompt served from the cache.
 */
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { forcingModel } from './support/forced-calls.js';
import { RecordingProxy, type ProxiedExchange } from './support/recording-proxy.js';
import { describeRun, llamaModel, realEngine, runEvents, theRunEnd, Workspace } from './support/real-engine.js';
import { PARSER_ERROR, retryParserErrors } from './support/parser-errors.js';
import { startSmallContextServer, type SmallContextServer } from './support/small-context-server.js';
import { template } from './support/templates.js';

const llama = inject('llama');
const dir = 'dir' in llama ? llama.dir : '';
const TARGET = 0.9;

/** `timings` of a streamed llama-server response (sent with the usage chunk). */
function cacheShare(exchange: ProxiedExchange): { cached: number; processed: number; share: number } {
  const line = exchange.raw.split('\n').find((l) => l.startsWith('data: ') && l.includes('"timings"'));
  if (!line) throw new Error(`no timings in the response: ${exchange.raw.slice(-300)}`);
  const timings = (JSON.parse(line.slice(6)) as { timings: { cache_n: number; prompt_n: number } }).timings;
  return { cached: timings.cache_n, processed: timings.prompt_n, share: timings.cache_n / (timings.cache_n + timings.prompt_n) };
}

/**
 * Reports and checks each chat request after the first: at least {@link TARGET} of its prompt
 * from the cache, and (what the harness controls) the whole prompt of the request before it
 * reused but for the few tokens a template renders after the last message.
 */
function expectCached(label: string, all: readonly ProxiedExchange[]): number {
  const chats = all.filter((e) => e.path.endsWith('/chat/completions'));
  const counts = chats.map(cacheShare);
  process.stderr.write(`[prompt-cache] ${label}: ${counts.slice(1).map((s) => `${s.cached}/${s.cached + s.processed}=${s.share.toFixed(3)}`).join(' ')}\n`);
  for (let i = 1; i < counts.length; i++) {
    const before = counts[i - 1]!.cached + counts[i - 1]!.processed;
    expect(counts[i]!.cached, `${label} #${i}: the previous prompt (${before} tokens) reused`).toBeGreaterThanOrEqual(before - 4);
    expect(counts[i]!.share, `${label} #${i}: share of the prompt from the cache`).toBeGreaterThanOrEqual(TARGET);
  }
  return counts.length - 1;
}

/** The workspace tools a user's main agent has by default (delegation left out: one agent here). */
const TOOLS = ['read', 'write', 'edit', 'list', 'glob', 'grep', 'bash', 'todo'];

describe.skipIf(dir === '')('prompt tokens served from llama-server cache', () => {
  let server: SmallContextServer | undefined;
  let proxy: RecordingProxy | undefined;
  let workspace: Workspace;
  beforeAll(async () => {
    workspace = new Workspace();
    // One slot, as a single-user server runs: every request of the session lands on it.
    server = await startSmallContextServer(dir, template('Functionary v3.2').file, 16_384);
    proxy = await RecordingProxy.start(server.url);
  }, 30_000);
  afterAll(async () => {
    await proxy?.close();
    await server?.stop();
    workspace?.remove();
  });

  it(`each turn of a session after the first is served at least ${TARGET * 100}% from the cache`, async () => {
    const profile = template('Functionary v3.2');
    const engine = realEngine(workspace, { keep: TOOLS, model: llamaModel(proxy!.baseURL, { maxTokens: 24 }, { logit_bias: profile.stopBias }) });
    const from = proxy!.exchanges.length;
    for (let turn = 1; turn <= 6; turn++) {
      await retryParserErrors(async (watch) => {
        watch(proxy!);
        const events = await runEvents(engine.stream(`Turn ${turn}: note this and reply briefly.`, { sessionId: 'cached' }));
        expect(theRunEnd(events).abnormal, describeRun(events)).toBe(false);
      });
    }
    await proxy!.settled();
    // A try that ended on the server's parser error stays in the session, closed by a note (a
    // failed turn is recorded), so the next prompt still extends it; its own response has no
    // timings to read, and it is not one of the six turns.
    const turns = proxy!.exchanges.slice(from).filter((e) => !PARSER_ERROR.test(e.error ?? ''));
    expect(expectCached('session turns', turns)).toBe(5);
  }, 300_000);

  it(`each step of a run after the first is served at least ${TARGET * 100}% from the cache`, async () => {
    const profile = template('Functionary v3.2');
    const model = await forcingModel(profile, server!.url, proxy!.baseURL, 'list');
    // maxSteps 4: three forced `list` calls, each step's prompt the one before plus a call and its result.
    const engine = realEngine(workspace, { keep: TOOLS, model, maxSteps: 4 });
    await retryParserErrors(async (watch) => {
      watch(proxy!);
      // A try again is a new run from its first step: only this try's steps are compared, and
      // checked inside the try so that one cut by the server's parser error is run again.
      const from = proxy!.exchanges.length;
      await runEvents(engine.stream('List the files, again and again.'));
      await proxy!.settled();
      // The last step is sent without tools (the run's last allowed step), which changes the
      // prompt's head in every template that renders tools first: measured, not targeted.
      const steps = proxy!.exchanges.slice(from).filter((e) => Array.isArray(e.body['tools']));
      expect(expectCached('steps with tools', steps)).toBeGreaterThanOrEqual(2);
    });
  }, 300_000);
});
