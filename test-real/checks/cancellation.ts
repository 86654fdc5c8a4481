/**
 * Cancellation on a real server: unsubscribing mid-generation aborts the HTTP request, and
 * the server must stop generating within 200 ms (its `/slots` shows no slot processing),
 * while nothing more is emitted and no `RunEnd` is faked.
 */
import { setTimeout as delay } from 'node:timers/promises';
import { expect, it } from 'vitest';
import type { AgentEvent } from '../../src/events/agent-event.js';
import type { ChatModel } from '../../src/model/chat-model.js';
import { forcingModel } from '../support/forced-calls.js';
import { llamaModel, realEngine, type Workspace } from '../support/real-engine.js';
import type { Rig } from '../support/rig.js';
import { decoding, waitForSlots } from '../support/server-endpoints.js';
import type { TemplateProfile } from '../support/templates.js';

const LONG = 4_000;
const WITHIN_MS = 200;
/**
 * Timed on 2 shared cores, one measurement can catch a stall of the machine; a server that
 * ignores the abort goes on for seconds (4,000 tokens) every time, so three tries tell them apart.
 */
const TRIES = 3;

/** Registers the check. */
export function cancellationChecks(profile: TemplateProfile, rig: () => Rig): void {
  it(`unsubscribing mid-generation: the server stops generating within ${WITHIN_MS} ms (/slots)`, async () => {
    const { server, workspace } = rig();
    // Straight to the server (no proxy): the abort must reach it on its own. A text reply on
    // Functionary fails at its first token, so there a forced call that never ends is the long generation.
    const model = profile.cutReply === 'length'
      ? llamaModel(server.baseURL, { maxTokens: LONG })
      : await forcingModel(profile, server.url, server.baseURL, 'list', { endless: true, maxTokens: LONG });
    const timings: number[] = [];
    while (timings.length < TRIES && !timings.some((ms) => ms < WITHIN_MS)) timings.push(await cancelOnce(server.url, workspace, model));
    expect(Math.min(...timings), `ms from unsubscribe until /slots showed no slot processing, per try: ${timings.map(Math.round).join(', ')}`).toBeLessThan(WITHIN_MS);
  });
}

/** One run, unsubscribed once the server is generating; resolves the milliseconds until the server stopped. */
async function cancelOnce(url: string, workspace: Workspace, model: ChatModel): Promise<number> {
  const events: AgentEvent[] = [];
  const errors: unknown[] = [];
  const subscription = realEngine(workspace, { model, keep: ['list'] })
    .stream('Talk for a long time.')
    .subscribe({ next: (e) => events.push(e), error: (e: unknown) => errors.push(e) });
  try {
    const busy = await waitForSlots(url, (all) => decoding(all) >= 16, 'the reply to be generating');
    expect(decoding(busy), 'still mid-generation when unsubscribing').toBeLessThan(LONG / 2);
  } finally {
    subscription.unsubscribe();
  }
  const unsubscribedAt = performance.now();
  const emitted = events.length;
  await waitForSlots(url, (all) => all.every((s) => !s.is_processing), 'the server to stop generating', 10_000, 0);
  const stoppedMs = performance.now() - unsubscribedAt;
  await delay(50);
  expect(events.length, 'events after unsubscribe').toBe(emitted);
  expect(events.some((e) => e.type === 'RunEnd'), 'no RunEnd is faked').toBe(false);
  expect(errors).toEqual([]);
  return stoppedMs;
}
