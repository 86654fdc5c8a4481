/**
 * `stream()`, `call()` and a two-turn session on a real server: one unwrapped `RunEnd`,
 * last; the text and the usage exactly as the server streamed them (read by the recording
 * proxy, independently of rxharness's own SSE reader); the second turn sends the first.
 */
import { expect, it } from 'vitest';
import type { ReasonDeltaEvent, ReasonEndEvent } from '../../src/events/agent-event.js';
import { describeRun, llamaModel, realEngine, runEvents, theRunEnd } from '../support/real-engine.js';
import type { ProxiedExchange } from '../support/recording-proxy.js';
import type { Rig } from '../support/rig.js';
import { retryParserErrors } from '../support/parser-errors.js';
import type { TemplateProfile } from '../support/templates.js';

/** Enough for the few tokens the stop bias lets through; a reply reaching it would be cut (and the check fail, saying so). */
const MAX_TOKENS = 48;

/** The exchange's usage in rxharness's spelling, for comparing with metrics. */
export function usageOf(exchange: ProxiedExchange | undefined): { promptTokens: number; completionTokens: number; totalTokens: number } {
  const usage = exchange?.usage;
  if (!usage) throw new Error(`the server reported no usage: ${exchange?.raw.slice(-600) ?? 'no request'}`);
  return { promptTokens: usage.prompt_tokens, completionTokens: usage.completion_tokens, totalTokens: usage.total_tokens };
}

/** Registers the checks. */
export function basicRunChecks(profile: TemplateProfile, rig: () => Rig): void {
  // The stop bias makes the random model end its reply by itself, a few tokens in.
  const model = (baseURL: string) => llamaModel(baseURL, { maxTokens: MAX_TOKENS }, { logit_bias: profile.stopBias });

  it('stream(): one unwrapped RunEnd, last; text, finish and usage as the server sent them', () => retryParserErrors(async (watch) => {
    const { proxy, workspace } = rig();
    watch(proxy);
    const engine = realEngine(workspace, { model: model(proxy.baseURL) });
    const events = await runEvents(engine.stream('Say hello.'));
    await proxy.settled();
    const end = theRunEnd(events);
    const [exchange] = proxy.chats;
    expect(proxy.chats, 'one request').toHaveLength(1);
    expect(end.abnormal, `${describeRun(events)}\n${exchange?.raw.slice(-800)}`).toBe(false);
    const reasonEnd = events.find((e): e is ReasonEndEvent => e.type === 'ReasonEnd');
    expect(reasonEnd?.finishReason, exchange?.raw.slice(-800)).toBe('stop');
    expect(reasonEnd?.usage).toEqual(usageOf(exchange));
    expect({ ...end.metrics, durationMs: 0 }).toEqual({ ...usageOf(exchange), durationMs: 0, tasks: 0 });
    const deltas = events.filter((e): e is ReasonDeltaEvent => e.type === 'ReasonDelta');
    expect(end.text).toBe(exchange?.text);
    expect(deltas.filter((d) => d.kind === 'text').map((d) => d.text).join('')).toBe(exchange?.text);
    expect(deltas.filter((d) => d.kind === 'thinking').map((d) => d.text).join('')).toBe(exchange?.thinking);
  }));

  it('call(): the result and metrics match the server', () => retryParserErrors(async (watch) => {
    const { proxy, workspace } = rig();
    watch(proxy);
    const engine = realEngine(workspace, { model: model(proxy.baseURL) });
    const result = await engine.call('Say hello.');
    await proxy.settled();
    expect(result.abnormal, result.error).toBe(false);
    expect(result.steps).toBe(1);
    expect(result.text).toBe(proxy.chats[0]?.text);
    expect({ ...result.metrics, durationMs: 0 }).toEqual({ ...usageOf(proxy.chats[0]), durationMs: 0, tasks: 0 });
  }));

  it('a two-turn session: the second request carries the first turn, and the template accepts it', () => retryParserErrors(async (watch) => {
    const { proxy, workspace } = rig();
    watch(proxy);
    const engine = realEngine(workspace, { model: model(proxy.baseURL) });
    const first = await engine.call('Remember the number 7.', { sessionId: 'two-turns' });
    const second = await engine.call('Which number was it?', { sessionId: 'two-turns' });
    await proxy.settled();
    expect([first.abnormal, second.abnormal], `${first.error} / ${second.error}`).toEqual([false, false]);
    const sent = (proxy.chats[1]?.body.messages ?? []) as Array<{ role: string; content: string | null }>;
    const turns = sent.filter((m) => m.role !== 'system').map((m) => [m.role, m.content]);
    expect(turns).toEqual([
      ['user', 'Remember the number 7.'],
      ['assistant', first.text],
      ['user', 'Which number was it?'],
    ]);
    expect(first.text).toBe(proxy.chats[0]?.text);
    expect(proxy.chats.map((c) => c.status)).toEqual([200, 200]);
  }));
}
