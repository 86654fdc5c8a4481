/**
 * A compacting turn cancelled (unsubscribed) at each of its points, on a `FileSessionStore`
 * with a key whose archive already holds two compactions' blocks, so the compaction reads
 * only the archive's tail (archive-tail.ts): after the k-th event, when the k-th model request
 * reaches the server, and before the k-th file-system call of the turn. Each time the next two
 * turns answer, and the conversation stays whole: it loads, its roles alternate, no tool call
 * is left unanswered, and the archive holds every message once, in order.
 */
import { cp, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Observable, type Subscription, take } from 'rxjs';
import { afterEach, describe, expect, it } from 'vitest';
import { HarnessEngine } from '../../src/engine/harness-engine.js';
import type { AgentEvent } from '../../src/events/agent-event.js';
import type { ChatMessage } from '../../src/model/chat-message.js';
import { FileSessionStore } from '../../src/session/file-session-store.js';
import { alternationProblems, pageTool, pageTurns } from '../support/compaction-kit.js';
import { conversationProblems } from '../support/conversation.js';
import { FakeOpenAIServer } from '../support/fake-openai-server.js';
import { openAIModelFor } from '../support/openai-model.js';
import { homeBeside } from '../support/tool-context.js';
import { workspaceHomePerTest } from '../support/workspace-home-per-test.js';
import { onFileCall, prompts, watchFileCalls } from './compaction-cancel-kit.js';

const KEY = 'the user key, kept outside the workspace';
const CONTEXT = 4_096;
const ws = workspaceHomePerTest();
const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  onFileCall(undefined);
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** Where a turn is cancelled: after its k-th event, at its k-th model request, before its k-th file-system call. */
type Point = { readonly at: 'event' | 'request' | 'file'; readonly k: number };

/** A turn's events, whether it was cancelled, and how many requests and file-system calls it made. */
interface Turn {
  readonly events: AgentEvent[];
  readonly error: unknown;
  readonly cancelled: boolean;
  readonly requests: number;
  readonly fileCalls: number;
}

/** What cancelling a run threw (nothing may). */
const teardownErrors: unknown[] = [];

/** Told of each request as it reaches the server, while a turn runs. */
let onRequest: (() => void) | undefined;

/** One turn of session `s`, cancelled at `point`; tried again while a run cancelled before still holds the session. */
async function runTurn(engine: HarnessEngine, topic: number, point?: Point): Promise<Turn> {
  for (let tries = 0; ; tries++) {
    const turn = await tryTurn(engine, topic, point);
    if ((turn.error as { name?: string } | undefined)?.name !== 'SessionBusyError' || tries > 500) return turn;
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

/** One try of {@link runTurn}: ends when the run completes or errors, or at once when it is cancelled. */
async function tryTurn(engine: HarnessEngine, topic: number, point?: Point): Promise<Turn> {
  const events: AgentEvent[] = [];
  let requests = 0;
  let fileCalls = 0;
  let cancelled = false;
  let subscription: Subscription | undefined;
  let stop!: () => void;
  const stopped = new Promise<void>((resolve) => (stop = resolve));
  const cancel = (): void => {
    if (cancelled) return;
    cancelled = true;
    stop();
    try {
      subscription?.unsubscribe();
    } catch (e) {
      teardownErrors.push(e); // nothing may throw out of a cancel (here it would reach the store's call)
    }
  };
  onRequest = () => (++requests === point?.k && point.at === 'request' ? cancel() : undefined);
  onFileCall(() => (++fileCalls === point?.k && point.at === 'file' ? cancel() : undefined));
  let source: Observable<AgentEvent> = engine.stream(`Tell me about topic ${topic}`, { sessionId: 's' });
  if (point?.at === 'event') source = source.pipe(take(point.k)); // take unsubscribes from the run after its k-th event
  let error: unknown;
  const done = new Promise<void>((resolve) => {
    subscription = source.subscribe({ next: (e) => events.push(e), error: (e: unknown) => ((error = e), resolve()), complete: resolve });
  });
  if (cancelled) subscription!.unsubscribe(); // cancelled while subscribing: the subscription was not there yet
  await Promise.race([done, stopped]);
  onRequest = undefined;
  onFileCall(undefined);
  const ended = point?.at === 'event' && events.length === point.k && events.at(-1)?.type !== 'RunEnd';
  return { events, error, cancelled: cancelled || ended, requests, fileCalls };
}

/** The whole transcript of session `s`, read by a fresh store (every seal checked). */
const transcript = (): Promise<readonly ChatMessage[]> => new FileSessionStore(ws.dir, { grantKey: KEY }).loadArchive('s');

describe("a compaction reading the archive's tail, cancelled at each of its points", () => {
  it('leaves a conversation that loads whole, every message once, and the next two turns answer', async () => {
    const server = await FakeOpenAIServer.start({ contextSize: CONTEXT, handler: (r) => (onRequest?.(), pageTurns(r)) });
    cleanups.push(() => server.close());
    const saved = await mkdtemp(join(tmpdir(), 'rxharness-tail-cancel-'));
    cleanups.push(() => rm(saved, { recursive: true, force: true }));
    const folder = join(ws.dir, '.rxharness');
    const engine = (): HarnessEngine => {
      const made = new HarnessEngine({ model: openAIModelFor(server), workspace: ws.dir, homeDir: homeBeside(ws.dir), tools: [pageTool], sessions: new FileSessionStore(ws.dir, { grantKey: KEY }) });
      cleanups.push(() => made.close());
      return made;
    };
    // Turns, each by a fresh engine (as every cancelled one will be), up to the third that compacts.
    let compactions = 0;
    let topic = 0;
    let reference: Turn | undefined;
    while (!reference) {
      topic += 1;
      expect(topic, 'a third compaction').toBeLessThan(40);
      await rm(saved, { recursive: true, force: true });
      if (topic > 1) await cp(folder, saved, { recursive: true });
      if (topic === 2) await watchFileCalls(join(folder, 'sessions', 's.jsonl'));
      const turn = await runTurn(engine(), topic);
      expect(turn.events.at(-1), `turn ${topic}`).toMatchObject({ type: 'RunEnd', abnormal: false, text: `answer ${topic}` });
      if (turn.events.some((e) => e.type === 'Compaction') && ++compactions === 3) reference = turn;
    }
    const restore = async (): Promise<void> => {
      await rm(folder, { recursive: true, force: true });
      await cp(saved, folder, { recursive: true });
    };
    await restore();
    // Blocks of two compactions or more: the next reads from the last one's line on (`archiveTail`, not the whole file).
    expect((await readFile(join(folder, 'sessions', 's.archive.jsonl'), 'utf8')).split('\n').filter((line) => line.startsWith('{"archiveBlock":')).length).toBeGreaterThanOrEqual(2);
    const before = await transcript();
    const points: Point[] = [
      ...Array.from({ length: reference.events.length }, (_, i): Point => ({ at: 'event', k: i + 1 })),
      ...Array.from({ length: reference.requests }, (_, i): Point => ({ at: 'request', k: i + 1 })),
      ...Array.from({ length: reference.fileCalls }, (_, i): Point => ({ at: 'file', k: i + 1 })),
    ];
    for (const point of points) {
      const where = `${point.at} ${point.k}`;
      await restore();
      const run = engine();
      const cancelled = await runTurn(run, topic, point);
      expect(cancelled.error, where).toBeUndefined();
      expect(teardownErrors, where).toEqual([]);
      expect(cancelled.events.filter((e) => e.type === 'RunEnd').length, where).toBeLessThanOrEqual(cancelled.cancelled ? 0 : 1);
      for (const next of [topic + 1, topic + 2]) {
        const turn = await runTurn(run, next);
        expect(turn.error, where).toBeUndefined();
        expect(turn.events.filter((e) => e.type === 'RunEnd'), where).toHaveLength(1);
        expect(turn.events.at(-1), where).toMatchObject({ type: 'RunEnd', abnormal: false, text: `answer ${next}` });
      }
      const live = await new FileSessionStore(ws.dir, { grantKey: KEY }).load('s');
      expect(conversationProblems(live), where).toEqual([]);
      expect(alternationProblems(live), where).toEqual([]);
      const after = await transcript();
      expect(after.slice(0, before.length), where).toEqual(before);
      const added = after.slice(before.length);
      const asked = [`Tell me about topic ${topic + 1}`, `Tell me about topic ${topic + 2}`];
      expect([[`Tell me about topic ${topic}`, ...asked], asked], where).toContainEqual(prompts(added));
      expect(conversationProblems(added), where).toEqual([]);
      expect(alternationProblems(added), where).toEqual([]);
      // The cancelled turn at most whole (prompt, call, result, answer or the closing one), then the two turns whole.
      expect(added.length - 8, where).toBeLessThanOrEqual(4);
      expect(added.slice(-8).map((m) => [m.role, m.role === 'assistant' && !m.tool_calls ? m.content : '']), where).toEqual(
        [topic + 1, topic + 2].flatMap((t) => [['user', ''], ['assistant', ''], ['tool', ''], ['assistant', `answer ${t}`]]),
      );
    }
  }, 600_000);
});
