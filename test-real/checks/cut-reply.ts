/**
 * A reply cut at the token limit (issue 11, fix 2): `settings: { maxTokens: 5 }` on the
 * model; the server ends with `finish_reason: length`, which must reach
 * `ReasonEnd.finishReason` and end the run abnormally with an error that says so. Also: a
 * conversation the template refuses fails once (it is not retried) with the server's words.
 */
import { expect, it } from 'vitest';
import type { ReasonDeltaEvent, ReasonEndEvent } from '../../src/events/agent-event.js';
import { MemorySessionStore } from '../../src/session/index.js';
import { usageOf } from './basic-runs.js';
import { retryParserErrors } from '../support/parser-errors.js';
import { describeRun, llamaModel, realEngine, runEvents, theRunEnd } from '../support/real-engine.js';
import type { Rig } from '../support/rig.js';
import type { TemplateProfile } from '../support/templates.js';

/** Registers the checks. */
export function cutReplyChecks(profile: TemplateProfile, rig: () => Rig): void {
  const cut = profile.cutReply;
  if (cut === 'length') {
    it('maxTokens 5: ReasonEnd.finishReason "length", and an abnormal RunEnd that says the reply was cut', () => retryParserErrors(async (watch) => {
      const { proxy, workspace } = rig();
      watch(proxy);
      const engine = realEngine(workspace, { model: llamaModel(proxy.baseURL, { maxTokens: 5 }) });
      const events = await runEvents(engine.stream('Tell me a long story.'));
      await proxy.settled();
      const exchange = proxy.chats[0];
      expect(exchange?.body.max_tokens, 'settings.maxTokens is sent as max_tokens').toBe(5);
      expect(exchange?.finishReason, exchange?.raw.slice(-800)).toBe('length');
      expect(exchange?.usage?.completion_tokens).toBe(5);
      const reasonEnd = events.find((e): e is ReasonEndEvent => e.type === 'ReasonEnd');
      expect(reasonEnd?.finishReason).toBe('length');
      const end = theRunEnd(events);
      expect(end.abnormal, describeRun(events)).toBe(true);
      expect(end.error).toMatch(/token limit \(finish_reason "length"\)/);
      // A reasoning template spends the 5 tokens thinking: the error says no answer was written.
      expect(end.error).toMatch(profile.thinking ? /before it wrote any answer/ : exchange?.text ? /in the middle of its answer/ : /before it wrote any answer/);
      expect(end.text).toBe(exchange?.text);
      expect({ ...end.metrics, durationMs: 0 }).toEqual({ ...usageOf(exchange), durationMs: 0, tasks: 0 });
      if (profile.thinking) {
        const thinking = events.filter((e): e is ReasonDeltaEvent => e.type === 'ReasonDelta' && e.kind === 'thinking');
        expect(thinking.map((d) => d.text).join('')).toBe(exchange?.thinking);
      }
    }));
  } else {
    it(`maxTokens 5: no "length" here (${cut.why}); the server's error ends the run abnormally, unretried`, async () => {
      const { proxy, workspace } = rig();
      const engine = realEngine(workspace, { model: llamaModel(proxy.baseURL, { maxTokens: 5 }) });
      const events = await runEvents(engine.stream('Tell me a long story.'));
      await proxy.settled();
      expect(proxy.chats, 'an error inside a begun stream is never retried').toHaveLength(1);
      expect(proxy.chats[0]?.error, proxy.chats[0]?.raw).toMatch(cut.serverError);
      const end = theRunEnd(events);
      expect(end.abnormal).toBe(true);
      expect(end.error).toContain(proxy.chats[0]?.error);
    });
  }

  const refusal = profile.refuses;
  if (refusal === undefined) return;
  it(`a conversation the template refuses (${refusal.why}) fails at once, unretried, with the server's words`, async () => {
    const { proxy, workspace } = rig();
    const sessions = new MemorySessionStore();
    await sessions.append('refused', refusal.stored);
    const engine = realEngine(workspace, { model: llamaModel(proxy.baseURL, { maxTokens: 5 }), sessions });
    const events = await runEvents(engine.stream('Go on.', { sessionId: 'refused' }));
    await proxy.settled();
    const [exchange] = proxy.chats;
    expect(exchange?.status, exchange?.raw).toBe(refusal.status);
    expect(exchange?.error).toMatch(refusal.error);
    expect(proxy.chats.map((c) => c.status), 'a deterministic refusal is not retried (issue 11, fix 8)').toHaveLength(1);
    const end = theRunEnd(events);
    expect(end.abnormal).toBe(true);
    // The useful part of a template error is at its end: the whole of it must reach RunEnd.
    expect(end.error).toContain(String(refusal.status));
    expect(end.error).toContain(exchange?.error?.trim().split('\n').at(-1));
  });
}
