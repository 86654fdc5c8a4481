/**
 * The delegation scenario of the overhead and peer benchmarks, as the fake model plays it:
 * the main agent delegates to 4 workers at once, each worker streams a long answer, then
 * the main agent answers. Agents are told apart by a marker in their system prompt, so the
 * same script serves rxharness (one `multitask` call), `@openai/agents` (4 parallel calls of
 * agents-as-tools) and a raw client replaying the same requests. The numbers and markers are
 * in `delegation.json`, which the plain-JavaScript peer workers read too.
 *
 * @module
 */
import type { FakeHandler, FakeReply, FakeRequestBody } from '../../test/support/fake-openai-server.js';
import shape from './delegation.json' with { type: 'json' };

/** The scenario's numbers, markers and prompts. */
export const DELEGATION = shape;

const PROSE = 'The quick brown fox jumps over the lazy dog while the harness streams. ';

function prose(chunks: number): string {
  const length = chunks * shape.chunkSize;
  return PROSE.repeat(Math.ceil(length / PROSE.length)).slice(0, length);
}

const WORKER_REPLY: FakeReply = { text: prose(shape.workerChunks), chunkSize: shape.chunkSize };
const MAIN_FINAL: FakeReply = { text: prose(shape.mainChunks), chunkSize: shape.chunkSize };

/** The main agent's first turn: `multitask` when it has it, else one call per worker tool. */
function delegate(body: FakeRequestBody): FakeReply {
  const tools = (body.tools ?? []).flatMap((t) => (t.function ? [t.function.name] : []));
  const ids = Array.from({ length: shape.workers }, (_, i) => i + 1);
  if (tools.includes('multitask')) {
    const tasks = ids.map((i) => ({ index: i, agent_name: `worker-${i}`, prompt: shape.workerPrompt, description: `part ${i}` }));
    return { toolCalls: [{ name: 'multitask', arguments: { tasks } }] };
  }
  return { toolCalls: ids.map((i) => ({ name: `worker_${i}`, arguments: { input: shape.workerPrompt } })) };
}

const handler: FakeHandler = ({ body }) => {
  const messages = body.messages ?? [];
  const system = String(messages.find((m) => m.role === 'system')?.content ?? '');
  if (system.includes(shape.workerMarker)) return WORKER_REPLY;
  if (!system.includes(shape.mainMarker)) throw new Error(`delegation scenario: unknown agent, system prompt "${system.slice(0, 60)}"`);
  const lastUser = messages.findLastIndex((m) => m.role === 'user');
  return messages.slice(lastUser + 1).some((m) => m.role === 'tool') ? MAIN_FINAL : delegate(body);
};

export default handler;
