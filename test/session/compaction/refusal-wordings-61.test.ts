/**
 * Refusals in words found in the servers' own code or in their users' reports, and a refusal a
 * proxy sends as a 200 JSON body: each one is learned from, the refused turn is compacted and
 * sent again, later turns are compacted before they are sent, and no turn fails. Without the
 * words (or the reading of the 200 body) every turn past the window would be refused the same way.
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
/** A refusal as a 400 carrying `message`. */
const refused = (message: string): FakeReply => ({ status: 400, errorMessage: message });

/** Refusals that name the window, for a prompt of `n` tokens over {@link WINDOW}. */
const NAMING: Record<string, (n: number) => FakeReply> = {
  // ollama/ollama x/mlxrunner/pipeline.go (Prepare, a 400 through the server), at fb30760.
  'Ollama, its MLX engine': (n) => refused(`input length (${n} tokens) exceeds the model's maximum context length (${WINDOW} tokens)`),
  // ddalcu/mlx-serve src/server.zig contextOverflowMessage (and its test), at 9a785b7.
  'mlx-serve': (n) => refused(`Prompt exceeds maximum context length: ${n} tokens requested, ${WINDOW} available`),
  // MoonshotAI/MoonshotAI-Cookbook issue 18 (moonshot-v1-8k, 2024): "model max length exceeded, max length:8192".
  'Moonshot, older': () => refused(`model max length exceeded, max length:${WINDOW}`),
};

/** Refusals that name no window (the engine learns a little less than the refused request). */
const UNNAMING: Record<string, (n: number) => FakeReply> = {
  // ollama/ollama llm/llama_server.go (a prompt over the context, context shift off), at fb30760.
  'Ollama, its llama-server runner': () => refused('the prompt is longer than the context length currently available to the model; shorten the prompt, adjust the context length in settings, or use a model with a longer context length'),
  // MoonshotAI/kimi-code issue 1862 (Kimi Code): "400 total message size 2100954 exceeds limit 2097152", a size in characters.
  'Kimi Code': (n) => refused(`total message size ${n * 4} exceeds limit ${WINDOW * 4}`),
  // A proxy that answers 200 with an error object whose only sign of a refusal is its code.
  'a 200 JSON body with the code context_length_exceeded': () => ({
    rawSse: JSON.stringify({ error: { message: 'Please reduce the length of the messages or completion.', type: 'invalid_request_error', code: 'context_length_exceeded' } }),
    headers: { 'content-type': 'application/json' },
  }),
};

describe('a conversation past the window, refused in words found in the servers and their reports', () => {
  let server: FakeOpenAIServer | undefined;
  let dir: string | undefined;
  afterEach(async () => {
    await server?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  /** Ten turns of a session on a server that refuses a prompt over {@link WINDOW} with `refusal`. */
  const converse = async (refusal: (n: number) => FakeReply): Promise<{ compactions: CompactionEvent[]; failures: string[]; refusals: number }> => {
    let refusals = 0;
    const handler = (request: RecordedRequest): FakeReply => {
      const n = estimateUsage(request.body, {}).prompt_tokens;
      if (n <= WINDOW) return pageTurns(request);
      refusals++;
      return refusal(n);
    };
    server = await FakeOpenAIServer.start({ handler });
    dir = await realpath(await mkdtemp(join(tmpdir(), 'refusal-wordings-61-')));
    const engine = new HarnessEngine({
      model: openAIModelFor(server), workspace: dir, homeDir: dir, tools: [pageTool],
      sessions: new FileSessionStore(dir, { grantKey: 'refusal-wordings-61' }),
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

  it.each(Object.entries(NAMING))('%s: the window its words name is learned, and every turn succeeds', async (_server, refusal) => {
    const { compactions, failures, refusals } = await converse(refusal);
    expect(failures).toEqual([]);
    expect(compactions[0]).toMatchObject({ reason: 'context-exceeded', contextWindow: WINDOW });
    expect(compactions.slice(1).map((c) => c.reason)).toContain('context-limit');
    expect(refusals).toBe(1);
  }, 60_000);

  it.each(Object.entries(UNNAMING))('%s: a refusal naming no window is still one, and every turn succeeds', async (_server, refusal) => {
    const { compactions, failures, refusals } = await converse(refusal);
    expect(failures).toEqual([]);
    expect(compactions[0]?.reason).toBe('context-exceeded');
    expect(compactions[0]?.contextWindow).toBeLessThan(WINDOW);
    expect(compactions.slice(1).map((c) => c.reason)).toContain('context-limit');
    expect(refusals).toBe(1);
  }, 60_000);
});
