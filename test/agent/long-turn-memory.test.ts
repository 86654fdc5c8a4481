import { mkdtemp, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ReActAgent } from '../../src/agent/react-agent.js';
import type { ChatMessage } from '../../src/model/chat-message.js';
import { FileSessionStore } from '../../src/session/file-session-store.js';
import type { Tool } from '../../src/tools/tool.js';
import { collected } from '../support/collected.js';
import { isSummaryRequest, SUMMARY } from '../support/compaction-kit.js';
import { FakeOpenAIServer } from '../support/fake-openai-server.js';
import { openAIModelFor } from '../support/openai-model.js';
import { TEXT_PARAMETERS } from '../support/test-tools.js';

// The attack: one long turn of tool steps, each result large and different. Compaction keeps
// every request inside the window, so what the run holds must stay that of a step or so; a
// run that kept every message it saved (to close the turn, should it stop) grew with the turn.

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const clean of cleanups.splice(0).reverse()) await clean();
});

/** A file store that also keeps a weak reference to each tool result handed to it: what the run saved. */
class WatchedStore extends FileSessionStore {
  readonly results: WeakRef<ChatMessage>[] = [];
  override append(sessionId: string, messages: readonly ChatMessage[]): Promise<void> {
    for (const m of messages) if (m.role === 'tool') this.results.push(new WeakRef(m));
    return super.append(sessionId, messages);
  }
}

describe('a long turn kept in its window by compaction', () => {
  it('does not hold the results of its earlier steps once they are saved and compacted away', async () => {
    const STEPS = 8;
    let asked = 0;
    const server = await FakeOpenAIServer.start({
      contextSize: 16_384,
      handler: (r) => {
        if (isSummaryRequest(r)) return { text: SUMMARY };
        return asked >= STEPS ? { text: 'done' } : { toolCalls: [{ name: 'fetch_page', arguments: { text: `page ${++asked}` } }] };
      },
    });
    cleanups.push(() => server.close());
    const dir = await realpath(await mkdtemp(join(tmpdir(), 'long-turn-')));
    cleanups.push(() => rm(dir, { recursive: true, force: true }));
    const sessions = new WatchedStore(dir);
    let calls = 0;
    const firstResults: boolean[] = [];
    const bigPage: Tool<{ text: string }> = {
      name: 'fetch_page',
      description: 'Fetches a page.',
      parameters: TEXT_PARAMETERS,
      execute: async () => {
        calls++;
        // In the last step, with the run still going: the first two steps' results are in the store and summarised.
        if (calls === STEPS) for (const ref of sessions.results.slice(0, 2)) firstResults.push(await collected(ref));
        return `${calls}:`.padEnd(40_000, String.fromCharCode(97 + (calls % 26)));
      },
    };
    const agent = new ReActAgent({ model: openAIModelFor(server), sessions, tools: [bigPage], maxSteps: STEPS + 2 });
    const result = await agent.call('Read the pages.', { sessionId: 's' });
    expect(result.abnormal, result.error).toBe(false);
    expect(calls).toBe(STEPS);
    expect(firstResults).toEqual([true, true]);
  });
});
