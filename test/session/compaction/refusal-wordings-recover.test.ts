/**
 * A session on a server that does not announce its window (no `/props`: every server but
 * llama.cpp) grows past the window, and the server refuses in its own words. The engine learns
 * the window from that refusal alone: the refused turn is compacted and sent again, later turns
 * are compacted before they are sent, and no turn fails.
 */
import { mkdtemp, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { HarnessEngine } from '../../../src/engine/harness-engine.js';
import type { CompactionEvent } from '../../../src/events/agent-event.js';
import { FileSessionStore } from '../../../src/session/file-session-store.js';
import { record } from '../../support/collect-events.js';
import { FakeOpenAIServer, type FakeReply, type RecordedRequest } from '../../support/fake-openai-server.js';
import { estimateUsage } from '../../support/fake-openai/usage-estimate.js';
import { openAIModelFor } from '../../support/openai-model.js';
import { pageTool, pageTurns } from '../../support/compaction-kit.js';

const WINDOW = 8_192;
/** The servers' words for a prompt of `n` tokens over {@link WINDOW}. */
const REFUSALS: Record<string, (n: number) => string> = {
  'SGLang / LiteLLM': (n) => `Requested token count exceeds the model's maximum context length of ${WINDOW} tokens. You requested a total of ${n + 1000} tokens: ${n} tokens from the input messages and 1000 tokens for the completion.`,
  Together: (n) => `The input (${n} tokens) is longer than the model's context length (${WINDOW} tokens).`,
  Mistral: (n) => `Prompt contains ${n} tokens and 0 draft tokens, too large for model with ${WINDOW} maximum context length`,
  xAI: (n) => `This model's maximum prompt length is ${WINDOW} but the request contains ${n} tokens.`,
  Anthropic: (n) => `prompt is too long: ${n} tokens > ${WINDOW} maximum`,
  Gemini: (n) => `The input token count (${n}) exceeds the maximum number of tokens allowed (${WINDOW}).`,
  'vLLM, input length': (n) => `Input length (${n}) exceeds model's maximum context length (${WINDOW}).`,
  'vLLM, decoder prompt': (n) => `The decoder prompt (length ${n}) is longer than the maximum model length of ${WINDOW}.`,
  'SGLang, maximum allowed length': (n) => `Input length (${n} tokens) exceeds the maximum allowed length (${WINDOW} tokens).`,
  TGI: (n) => `Input validation error: \`inputs\` tokens + \`max_new_tokens\` must be <= ${WINDOW}. Given: ${n} \`inputs\` tokens and 0 \`max_new_tokens\``,
  Poolside: (n) => `Input length ${n} exceeds the maximum allowed input length of ${WINDOW} tokens.`,
  'Anthropic, its own API': (n) => `input length and \`max_tokens\` exceed context limit: ${n} + 0 > ${WINDOW}`,
  Kimi: (n) => `Invalid request: Your request exceeded model token limit: ${WINDOW} (requested: ${n})`,
  'Qwen (DashScope)': () => `Range of input length should be [1, ${WINDOW}]`,
  'thousands separators': (n) => `Prompt has ${n.toLocaleString('en-US')} tokens, but the configured context size is ${WINDOW.toLocaleString('en-US')} tokens`,
};

describe('a conversation past the window of a server that names it only when it refuses', () => {
  let server: FakeOpenAIServer | undefined;
  let dir: string | undefined;
  afterEach(async () => {
    await server?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  /** Ten turns of a session on a server that refuses a prompt over {@link WINDOW} in `words`: the compactions, and the turns that failed. */
  const converse = async (words: (n: number) => string): Promise<{ compactions: CompactionEvent[]; failures: string[]; refusals: number }> => {
    // Refuses, as the real server would, a prompt over the window in its server's count.
    const handler = (request: RecordedRequest): FakeReply => {
      const n = estimateUsage(request.body, {}).prompt_tokens;
      return n > WINDOW ? { status: 400, errorMessage: words(n) } : pageTurns(request);
    };
    server = await FakeOpenAIServer.start({ handler });
    dir = await realpath(await mkdtemp(join(tmpdir(), 'refusal-wordings-')));
    const engine = new HarnessEngine({
      model: openAIModelFor(server), workspace: dir, homeDir: dir, tools: [pageTool],
      sessions: new FileSessionStore(dir, { grantKey: 'refusal-wordings' }),
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
    return { compactions, failures, refusals: server.requests.filter((r) => r.status === 400).length };
  };

  it.each(Object.entries(REFUSALS))('%s: its window is learned from the refusal, and every turn succeeds', async (_server, words) => {
    const { compactions, failures, refusals } = await converse(words);
    expect(failures).toEqual([]);
    // The first compaction answers the refusal, with the window its words name; later ones come before the request.
    expect(compactions[0]).toMatchObject({ reason: 'context-exceeded', contextWindow: WINDOW });
    expect(compactions.slice(1).map((c) => c.reason)).toContain('context-limit');
    expect(refusals).toBe(1);
  }, 60_000);

  // Ollama says by how much the prompt is over, not the window: the window learned is a little less than the refused prompt.
  it('Ollama: a refusal naming only the excess is still one, and every turn succeeds', async () => {
    const { compactions, failures, refusals } = await converse((n) => `prompt too long; exceeded max context length by ${n - WINDOW} tokens`);
    expect(failures).toEqual([]);
    expect(compactions[0]?.reason).toBe('context-exceeded');
    expect(compactions[0]?.contextWindow).toBeLessThan(WINDOW);
    expect(compactions.slice(1).map((c) => c.reason)).toContain('context-limit');
    expect(refusals).toBe(1);
  }, 60_000);
});
