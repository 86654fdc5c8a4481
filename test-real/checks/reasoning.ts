/**
 * Reasoning templates (DeepSeek-R1, Qwen3.5): the server streams `reasoning_content`,
 * which must arrive as `ReasonDelta` events of kind `thinking`, piece by piece; a reply that
 * runs out of tokens while thinking ends the run abnormally (no answer was written).
 */
import { expect, it } from 'vitest';
import type { ReasonDeltaEvent, ReasonEndEvent } from '../../src/events/agent-event.js';
import { retryParserErrors } from '../support/parser-errors.js';
import { describeRun, llamaModel, realEngine, runEvents, theRunEnd } from '../support/real-engine.js';
import type { Rig } from '../support/rig.js';

/** Registers the check. */
export function reasoningChecks(rig: () => Rig): void {
  it('reasoning_content arrives as ReasonDelta of kind thinking, as streamed', () => retryParserErrors(async (watch) => {
    const { proxy, workspace } = rig();
    watch(proxy);
    const engine = realEngine(workspace, { model: llamaModel(proxy.baseURL, { maxTokens: 24 }) });
    const events = await runEvents(engine.stream('Think about it.'));
    await proxy.settled();
    const exchange = proxy.chats[0];
    const deltas = events.filter((e): e is ReasonDeltaEvent => e.type === 'ReasonDelta');
    const pieces = (exchange?.raw.match(/"reasoning_content":"/g) ?? []).length;
    expect(pieces, `the server streamed no reasoning_content: ${exchange?.raw.slice(0, 800)}`).toBeGreaterThan(1);
    expect(deltas.map((d) => d.kind)).toEqual(Array(pieces).fill('thinking'));
    expect(deltas.map((d) => d.text).join('')).toBe(exchange?.thinking);
    const reasonEnd = events.find((e): e is ReasonEndEvent => e.type === 'ReasonEnd');
    expect([reasonEnd?.text, reasonEnd?.finishReason]).toEqual(['', 'length']);
    const end = theRunEnd(events);
    expect(end.abnormal, describeRun(events)).toBe(true);
    expect(end.error).toMatch(/token limit \(finish_reason "length"\) before it wrote any answer/);
  }));
}
