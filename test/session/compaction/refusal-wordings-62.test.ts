/**
 * LM Studio's refusals (its llama.cpp engine) and older mlx-serve's bare one: each is learned
 * from, the refused turn is compacted and sent again, later turns are compacted before they
 * are sent, and no turn fails; a refusal without counts is one all the same. Without the words
 * every turn past the window was refused the same way. A 400 that speaks of the "maximum
 * context length" about something else is no refusal: nothing is compacted for it.
 */
import { describe, expect, it } from 'vitest';
import type { FakeReply } from '../../support/fake-openai-server.js';
import { expectRecovered, refusedConversationPerTest, WINDOW } from './refused-conversation.js';

/** A refusal as a 400 carrying `message`. */
const refused = (message: string): FakeReply => ({ status: 400, errorMessage: message });
const LOAD_LARGER = 'Try to load the model with a larger context length, or provide a shorter input';

/**
 * Each refusal, for a prompt of `n` tokens over {@link WINDOW}, and whether it names the window
 * (else the engine learns a little less than the refused request).
 */
const REFUSALS: [string, (n: number) => FakeReply, 'named' | 'unnamed'][] = [
  // Gitlawb/openclaude issue 353: `400 {"error":"The number of tokens to keep … (n_keep: 13055>= n_ctx: 4096). Try to load …"}`.
  ['LM Studio, n_keep and n_ctx', (n) => refused(`The number of tokens to keep from the initial prompt is greater than the context length (n_keep: ${n}>= n_ctx: ${WINDOW}). ${LOAD_LARGER}.`), 'named'],
  // anomalyco/opencode issue 11141, continuedev/continue issue 11279.
  ['LM Studio, cannot truncate', (n) => refused(`Cannot truncate prompt with n_keep (${n}) >= n_ctx (${WINDOW})`), 'named'],
  // lmstudio-ai/lmstudio-bug-tracker issues 237 and 546 (older builds).
  ['LM Studio, older', (n) => refused(`Trying to keep the first ${n} tokens when context the overflows. However, the model is loaded with context length of only ${WINDOW} tokens, which is not enough. ${LOAD_LARGER}`), 'named'],
  // anomalyco/opencode issue 2259, lmstudio-ai/lmstudio-bug-tracker issue 2205.
  ['LM Studio, no counts', () => refused(`The number of tokens to keep from the initial prompt is greater than the context length. ${LOAD_LARGER}`), 'unnamed'],
  // mlx-serve tests/bench_prefill_sweep.sh, quoting the refusal of older builds.
  ['mlx-serve, older', () => refused('Prompt exceeds maximum context length'), 'unnamed'],
];

describe('a conversation past the window of LM Studio or an older mlx-serve', () => {
  const converse = refusedConversationPerTest();

  it.each(REFUSALS)('%s: learned from (the window it names, if any), and every turn succeeds', async (_server, refusal, window) => {
    expectRecovered(await converse(refusal), window);
  }, 60_000);

  it('a 400 about the answer\'s room that names the maximum context length: no refusal, nothing compacted', async () => {
    const { compactions, failures } = await converse(() => refused('max_tokens must not exceed the maximum context length of this model'));
    expect(compactions).toEqual([]);
    expect(failures.length).toBeGreaterThan(0);
    expect(failures[0]).toContain('max_tokens must not exceed the maximum context length');
  }, 60_000);
});
