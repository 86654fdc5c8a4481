/**
 * Ten turns of one session on a fake server that refuses, in a server's words, every prompt
 * over {@link WINDOW} tokens (in its count) and answers the others: what the tests of refusal
 * wordings read to see the window learned and no turn failed. The server and the folder a
 * test starts here are closed after it.
 *
 * @module
 */
import { mkdtemp, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'vitest';
import { HarnessEngine } from '../../../src/engine/harness-engine.js';
import type { CompactionEvent } from '../../../src/events/agent-event.js';
import { FileSessionStore } from '../../../src/session/file-session-store.js';
import { closedAfterEach } from '../../support/closed-after-each.js';
import { record } from '../../support/collect-events.js';
import { pageTool, pageTurns } from '../../support/compaction-kit.js';
import { estimateUsage, FakeOpenAIServer, type FakeReply, type RecordedRequest } from '../../support/fake-openai-server.js';
import { openAIModelFor } from '../../support/openai-model.js';
import { homeBeside } from '../../support/tool-context.js';

/** The fake server's context window, in its count (which the engine is never told). */
export const WINDOW = 8_192;

/** What a conversation of ten turns came to. */
export interface RefusedConversation {
  /** Every compaction of the ten turns, in order. */
  readonly compactions: readonly CompactionEvent[];
  /** `turn N: <error>` for each turn that did not end normally. */
  readonly failures: readonly string[];
  /** How many requests the server refused. */
  readonly refusals: number;
}

/** Holds ten turns on a server refusing a prompt of `n` tokens over {@link WINDOW} with `refusal(n)`. */
export type Converse = (refusal: (n: number) => FakeReply) => Promise<RefusedConversation>;

/**
 * Registers the `afterEach` that closes each test's server and removes its folder, and
 * returns the conversation. Call once at the top of a test file.
 *
 * @example
 * ```ts
 * const converse = refusedConversationPerTest();
 * it('...', async () => {
 *   const { failures } = await converse((n) => ({ status: 400, errorMessage: `request (${n} tokens) exceeds the available context size (${WINDOW} tokens)` }));
 * });
 * ```
 */
export function refusedConversationPerTest(): Converse {
  const open = closedAfterEach<{ server: FakeOpenAIServer; dir: { close(): Promise<void> } }>(['server', 'dir']);
  return async (refusal) => {
    let refusals = 0;
    // Refuses, as the real server would, a prompt over the window in its own count.
    const handler = (request: RecordedRequest): FakeReply => {
      const n = estimateUsage(request.body, {}).prompt_tokens;
      if (n <= WINDOW) return pageTurns(request);
      refusals++;
      return refusal(n);
    };
    const server = (open.server = await FakeOpenAIServer.start({ handler }));
    const dir = await realpath(await mkdtemp(join(tmpdir(), 'refused-conversation-')));
    open.dir = { close: () => rm(dir, { recursive: true, force: true }) };
    const engine = new HarnessEngine({
      model: openAIModelFor(server), workspace: dir, homeDir: homeBeside(dir), tools: [pageTool],
      sessions: new FileSessionStore(dir, { grantKey: 'refused-conversation' }),
    });
    const compactions: CompactionEvent[] = [];
    const failures: string[] = [];
    for (let turn = 1; turn <= 10; turn++) {
      const run = record(engine.stream(`Tell me about topic ${turn}`, { sessionId: 's' }));
      await run.done;
      compactions.push(...run.events.filter((e): e is CompactionEvent => e.type === 'Compaction'));
      const end = run.events.at(-1);
      if (end?.type !== 'RunEnd' || end.abnormal) failures.push(`turn ${turn}: ${end?.type === 'RunEnd' ? end.error : end?.type}`);
    }
    return { compactions, failures, refusals };
  };
}

/**
 * Checks that a conversation on a refusal the engine reads recovered: no turn failed, the
 * server refused once, the first compaction answered that refusal with the window its words
 * name (`named`) or, naming none, a little less than the refused request, and a later
 * compaction came before a request was sent.
 */
export function expectRecovered(conversation: RefusedConversation, window: 'named' | 'unnamed'): void {
  const { compactions, failures, refusals } = conversation;
  expect(failures).toEqual([]);
  expect(compactions[0]?.reason).toBe('context-exceeded');
  if (window === 'named') expect(compactions[0]?.contextWindow).toBe(WINDOW);
  else expect(compactions[0]?.contextWindow).toBeLessThan(WINDOW);
  expect(compactions.slice(1).map((c) => c.reason)).toContain('context-limit');
  expect(refusals).toBe(1);
}
