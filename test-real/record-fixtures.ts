/**
 * Records real llama-server answers as SSE fixtures for the main lane
 * (test/fixtures/llama/, replayed by test/model/llama-fixtures.test.ts). Each request is
 * sent by `OpenAIChatModel` through the recording proxy, which keeps the body byte for byte;
 * a fixture is kept only when the answer shows what it is for (the random model is retried
 * until it does).
 *
 *     npx tsx test-real/record-fixtures.ts
 */
import { writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { lastValueFrom, toArray } from 'rxjs';
import { taskModelParameters } from '../src/delegation/task-schemas.js';
import type { ChatRequest } from '../src/model/chat-model.js';
import type { ModelSettings } from '../src/model/model-settings.js';
import { findLlama } from './support/llama-location.js';
import { LlamaServer } from './support/llama-server.js';
import { llamaModel } from './support/real-engine.js';
import { RecordingProxy, type ProxiedExchange } from './support/recording-proxy.js';
import { EOS, template } from './support/templates.js';

const OUT = resolve(dirname(fileURLToPath(import.meta.url)), '../test/fixtures/llama');
const ATTEMPTS = 30;

interface Fixture {
  readonly file: string;
  readonly template: string;
  readonly request: ChatRequest;
  readonly settings: ModelSettings;
  readonly logitBias?: Record<string, number>;
  /** Whether an answer is the one wanted. */
  readonly keep: (exchange: ProxiedExchange) => boolean;
}

const messages: ChatRequest['messages'] = [
  { role: 'system', content: 'You are a helpful assistant.' },
  { role: 'user', content: 'Say hello.' },
];

const FIXTURES: Fixture[] = [
  {
    file: 'qwen2.5-text.sse',
    template: 'Qwen2.5',
    request: { messages },
    settings: { maxTokens: 24 },
    logitBias: { [EOS]: 1.5 },
    keep: (e) => e.finishReason === 'stop' && e.text.length > 8,
  },
  {
    file: 'functionary-parallel-calls.sse',
    template: 'Functionary v3.2',
    request: { messages, tools: [{ name: 'task', description: 'Runs one agent on a subtask.', parameters: taskModelParameters(['explore', 'general']) }] },
    settings: { toolChoice: 'required', maxTokens: 400 },
    logitBias: { '29958': 20, '6778': 20, '29916': 20, '29908': 20 }, // ../shared/llama/README.md
    keep: (e) => e.finishReason === 'tool_calls' && e.toolCalls >= 2,
  },
  {
    file: 'deepseek-r1-reasoning.sse',
    template: 'DeepSeek-R1',
    request: { messages },
    settings: { maxTokens: 12 },
    keep: (e) => e.finishReason === 'length' && e.thinking.length > 0,
  },
  {
    file: 'functionary-stream-error.sse',
    template: 'Functionary v3.2',
    request: { messages },
    settings: { maxTokens: 8 },
    keep: (e) => e.status === 200 && e.error !== undefined,
  },
];

async function record(dir: string, fixture: Fixture): Promise<void> {
  const server = await LlamaServer.start(dir, template(fixture.template).file, 1);
  const proxy = await RecordingProxy.start(server.url);
  try {
    const model = llamaModel(proxy.baseURL, fixture.settings, fixture.logitBias ? { logit_bias: fixture.logitBias } : {});
    for (let attempt = 1; attempt <= ATTEMPTS; attempt++) {
      proxy.clear();
      await lastValueFrom(model.stream(fixture.request).pipe(toArray())).catch(() => undefined);
      await proxy.settled();
      const [exchange] = proxy.chats;
      if (exchange && fixture.keep(exchange)) {
        writeFileSync(join(OUT, fixture.file), Buffer.concat(exchange.bytes));
        console.log(`${fixture.file}: recorded (attempt ${attempt}, ${exchange.raw.length} characters)`);
        return;
      }
    }
    throw new Error(`${fixture.file}: no wanted answer in ${ATTEMPTS} attempts`);
  } finally {
    await proxy.close();
    await server.stop();
  }
}

const location = findLlama();
if (!('dir' in location)) throw new Error(`no llama-server: ${location.missing}`);
console.log(`recording with ${location.dir}/llama-server ${location.version}`);
for (const fixture of FIXTURES) await record(location.dir, fixture);
