/**
 * Compaction on a real llama-server with a small context (issue 23): a 15-turn session on a
 * server started with `-c 2048` keeps answering. The window comes from the server's `/props`;
 * the session is compacted before the requests that would not fit.
 */
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { CompactionEvent } from '../src/events/agent-event.js';
import { MemorySessionStore } from '../src/session/memory-session-store.js';
import { RecordingProxy } from './support/recording-proxy.js';
import { describeRun, llamaModel, realEngine, runEvents, theRunEnd, Workspace } from './support/real-engine.js';
import { retryParserErrors } from './support/parser-errors.js';
import { startSmallContextServer, type SmallContextServer } from './support/small-context-server.js';
import { template } from './support/templates.js';

const llama = inject('llama');
const dir = 'dir' in llama ? llama.dir : '';
const CONTEXT = 2_048;
const TURNS = 15;

/** A prompt of some 600 characters: a few turns of them fill the context. */
const prompt = (turn: number): string => `Turn ${turn}. ${'Please keep these notes about the project build, the tests and the release plan in mind. '.repeat(7)}Reply briefly.`;

describe.skipIf(dir === '')(`a ${TURNS}-turn session on a llama-server with -c ${CONTEXT}`, () => {
  const profile = template('Qwen2.5');
  let server: SmallContextServer | undefined;
  let proxy: RecordingProxy | undefined;
  let workspace: Workspace;
  beforeAll(async () => {
    workspace = new Workspace();
    server = await startSmallContextServer(dir, profile.file, CONTEXT);
    proxy = await RecordingProxy.start(server.url);
  }, 30_000);
  afterAll(async () => {
    await proxy?.close();
    await server?.stop();
    workspace?.remove();
  });

  it('keeps answering: the session is compacted to fit the window the server announces', async () => {
    const sessions = new MemorySessionStore();
    // The stop bias ends each reply after a few tokens; no tools, so the prompt is the session.
    const engine = realEngine(workspace, { model: llamaModel(proxy!.baseURL, { maxTokens: 48 }, { logit_bias: profile.stopBias }), keep: [], sessions });
    const compactions: CompactionEvent[] = [];
    // Every question sent, in order: a try that ended on the server's parser error stays in the
    // session (a failed turn is recorded, not rolled back: docs/sessions.md) and is asked again.
    const asked: string[] = [];
    for (let turn = 1; turn <= TURNS; turn++) {
      await retryParserErrors(async (watch) => {
        watch(proxy!);
        asked.push(prompt(turn));
        const events = await runEvents(engine.stream(prompt(turn), { sessionId: 'small' }));
        compactions.push(...events.filter((e): e is CompactionEvent => e.type === 'Compaction'));
        expect(theRunEnd(events).abnormal, `turn ${turn}: ${describeRun(events)}`).toBe(false);
      });
    }
    await proxy!.settled();
    if (asked.length > TURNS) process.stderr.write(`[compaction] ${asked.length} questions for ${TURNS} turns: ${asked.length - TURNS} asked again after the server's parser error\n`);
    expect(compactions.length, 'compacted at least once').toBeGreaterThan(0);
    expect(compactions[0]!.contextWindow).toBe(CONTEXT);
    // Every answer request fit: the server counted each prompt within the window.
    for (const chat of proxy!.chats) expect(chat.status, chat.raw.slice(-400)).toBe(200);
    // Compaction lost no question: the archive holds each one asked, in order.
    expect(sessions.loadArchive('small').filter((m) => m.role === 'user').map((m) => m.content)).toEqual(asked);
  }, 300_000);
});
