/**
 * Shared pieces of the compaction tests (test/session/compaction/): a tool with about 3 KB of
 * output, a stored history of such turns, one of long chat without tools, a fake server
 * handler playing a model that calls the tool once per turn and answers, and the summariser.
 * (The fixture of a summariser on a server of its own: summariser-fixture.ts.)
 *
 * @module
 */
import type { ChatMessage } from '../../src/model/chat-message.js';
import type { Tool } from '../../src/tools/tool.js';
import type { FakeReply, RecordedRequest } from './fake-openai-server.js';
import { TEXT_PARAMETERS } from './test-tools.js';

/** About 3 KB of page text for `topic`, different for each topic. */
export function pageText(topic: string): string {
  const line = `${topic}: the quick brown fox jumps over the lazy dog while the build runs and the tests pass.\n`;
  return line.repeat(Math.ceil(3_000 / line.length));
}

/**
 * `turns` earlier turns of a session, each a prompt, a `fetch_page` call, its page of about
 * 3 KB and an answer (six: some 5,000 tokens).
 */
export function pagedHistory(turns = 6): ChatMessage[] {
  return Array.from({ length: turns }, (_, i): ChatMessage[] => [
    { role: 'user', content: `Tell me about topic ${i + 1}` },
    { role: 'assistant', content: null, tool_calls: [{ id: `c${i}`, type: 'function', function: { name: 'fetch_page', arguments: '{}' } }] },
    { role: 'tool', tool_call_id: `c${i}`, content: pageText(`topic ${i + 1}`) },
    { role: 'assistant', content: `answer ${i + 1}` },
  ]).flat();
}

/** `turns` turns of long chat, no tools (some 800 tokens each): pruning frees nothing, only a summary does. */
export function chatHistory(turns: number): ChatMessage[] {
  return Array.from({ length: turns }, (_, i): ChatMessage[] => [
    { role: 'user', content: `Tell me about topic ${i + 1}` },
    { role: 'assistant', content: `topic ${i + 1}: ${'the quick brown fox jumps over the lazy dog. '.repeat(70)}` },
  ]).flat();
}

/** `fetch_page`: answers about 3 KB for its `text`. */
export const pageTool: Tool<{ text: string }> = {
  name: 'fetch_page',
  description: 'Fetches a page about a topic.',
  parameters: TEXT_PARAMETERS,
  execute: (args) => pageText(args.text),
};

/** What the fake summariser writes. */
export const SUMMARY = 'SUMMARY: the user asked about several topics; each page was fetched and answered.';

/** Whether a request is a compaction's summary request (no tools, the summariser's prompt). */
export function isSummaryRequest(request: RecordedRequest): boolean {
  const first = request.body.messages?.[0];
  return request.body.tools === undefined && first?.role === 'system' && /You summarise a conversation/.test(first.content);
}

/**
 * A model that, for a prompt `topic N`, calls `fetch_page` once, then answers `answer N`;
 * a summary request gets {@link SUMMARY}.
 */
export function pageTurns(request: RecordedRequest): FakeReply {
  if (isSummaryRequest(request)) return { text: SUMMARY };
  const messages = request.body.messages ?? [];
  const last = messages.at(-1);
  const prompt = [...messages].reverse().find((m) => m.role === 'user')?.content ?? '';
  const topic = /topic \d+/.exec(prompt.split('\n').at(-1) ?? '')?.[0] ?? 'topic ?';
  if (last?.role === 'tool') return { text: `answer ${topic.slice(6)}` };
  return { toolCalls: [{ name: 'fetch_page', arguments: { text: topic } }] };
}

/** Where roles do not alternate user/assistant (tool results and tool-calling assistant messages aside). */
export function alternationProblems(messages: readonly ChatMessage[]): string[] {
  const problems: string[] = [];
  let expected: 'user' | 'assistant' = 'user';
  for (const [i, m] of messages.entries()) {
    if (m.role === 'system' || m.role === 'tool' || (m.role === 'assistant' && m.tool_calls?.length)) continue;
    if (m.role !== expected) problems.push(`message ${i}: ${m.role} where ${expected} comes next`);
    expected = expected === 'user' ? 'assistant' : 'user';
  }
  return problems;
}
