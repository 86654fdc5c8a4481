/**
 * SessionStore.list({ after, limit }) of the memory and file stores with a request that is
 * none: a cursor whose time is NaN (a cursor parsed by hand: `Number('')`... ), whose id is
 * not a string, or a limit that is not an integer >= 0. Each answered an empty page before,
 * which a client reads as "no more conversations"; each is refused now, naming the field.
 * (Over HTTP such a cursor never reaches the store: `GET /api/sessions` answers 400 for a
 * cursor it did not give, test/http/session-list-paging.test.ts.)
 */
import { afterEach, describe, expect, it } from 'vitest';
import { FileSessionStore } from '../../src/session/file-session-store.js';
import { MemorySessionStore } from '../../src/session/memory-session-store.js';
import type { SessionListRequest, SessionStore } from '../../src/session/session-store.js';
import { makeWorkspace, type TestWorkspace } from '../support/tool-context.js';

let workspace: TestWorkspace | undefined;
afterEach(async () => {
  await workspace?.cleanup();
  workspace = undefined;
});

const stores = [
  ['MemorySessionStore', async () => new MemorySessionStore()],
  ['FileSessionStore', async () => new FileSessionStore((workspace = await makeWorkspace()).dir, { grantKey: 'k' })],
] as const;

/** The store's answer, or the error it threw or rejected with. */
async function listed(store: SessionStore, request: SessionListRequest): Promise<unknown> {
  try {
    return await store.list!(request);
  } catch (e) {
    return e;
  }
}

describe.each(stores)('%s.list() with a request that is none', (_name, make) => {
  it('refuses a NaN or infinite time, an id that is no string and a bad limit, naming the field', async () => {
    const store = await make();
    await store.append('s1', [{ role: 'user', content: 'first' }]);
    await store.append('s2', [{ role: 'user', content: 'second' }]);
    const bad: [SessionListRequest, RegExp][] = [
      [{ after: { lastActivityAt: Number.NaN, sessionId: 's2' } }, /^list: after\.lastActivityAt must be a finite number .*got NaN$/],
      [{ limit: 10, after: { lastActivityAt: Number.POSITIVE_INFINITY, sessionId: 's2' } }, /^list: after\.lastActivityAt must be a finite number .*got Infinity$/],
      [{ after: { lastActivityAt: Date.now(), sessionId: 7 as unknown as string } }, /^list: after\.sessionId must be a string .*got 7$/],
      [{ after: 'cursor' as unknown as SessionListRequest['after'] }, /^list: after must be \{ lastActivityAt, sessionId \}/],
      [{ limit: Number.NaN }, /^list: limit must be an integer >= 0, got NaN$/],
      [{ limit: -1 }, /^list: limit must be an integer >= 0, got -1$/],
    ];
    for (const [request, message] of bad) {
      const answer = await listed(store, request);
      expect(answer, JSON.stringify(request)).toBeInstanceOf(RangeError);
      expect((answer as Error).message).toMatch(message);
    }
  });

  it('still answers a good cursor, one of a session since deleted included', async () => {
    const store = await make();
    await store.append('s1', [{ role: 'user', content: 'first' }]);
    const [first] = (await store.list!({ limit: 1 })) as { sessionId: string; lastActivityAt: number }[];
    expect(first).toMatchObject({ sessionId: 's1', title: 'first' });
    expect(await store.list!({ limit: 5, after: { lastActivityAt: first!.lastActivityAt + 1, sessionId: 'gone' } })).toEqual([first]);
    expect(await store.list!({ limit: 5, after: first })).toEqual([]);
    expect(await store.list!({ limit: 0 })).toEqual([]);
  });
});
