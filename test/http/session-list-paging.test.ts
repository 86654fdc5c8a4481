/**
 * GET /api/sessions pages, as attacks on the raw HTTP route: without a query it answers the
 * 50 most recent (never all), a larger limit is cut to 200, the cursor continues where the
 * previous page ended even while conversations are written, and a bad limit or a cursor the
 * server did not give is a 400 naming the parameter.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ScriptedModel } from '../../src/model/scripted-model.js';
import { MemorySessionStore } from '../../src/session/memory-session-store.js';
import type { SessionSummary } from '../../src/session/session-store.js';
import { serveRuns, type RunsServer } from './http-kit.js';

let served: RunsServer | undefined;
afterEach(async () => {
  await served?.close();
  served = undefined;
});

type Page = { sessions: SessionSummary[]; nextCursor?: string; error?: string };

async function get(query: string): Promise<{ status: number; body: Page }> {
  const response = await fetch(`${served!.url}/api/sessions${query}`);
  return { status: response.status, body: (await response.json()) as Page };
}

/** A store with `count` conversations, a millisecond apart (fake clock), newest `c<count-1>`. */
function storeWith(count: number): MemorySessionStore {
  const store = new MemorySessionStore();
  vi.useFakeTimers({ toFake: ['Date'] });
  try {
    for (let i = 0; i < count; i++) {
      vi.setSystemTime(1_700_000_000_000 + i);
      store.append(`c${i}`, [{ role: 'user', content: `prompt ${i}` }]);
    }
  } finally {
    vi.useRealTimers();
  }
  return store;
}

describe('GET /api/sessions pages', () => {
  it('answers the 50 most recent by default with a nextCursor, and cuts a larger limit to 200', async () => {
    served = await serveRuns({ model: new ScriptedModel([]), sessions: storeWith(260) }, { basePath: '/api' });
    const first = await get('');
    expect(first.status).toBe(200);
    expect(first.body.sessions).toHaveLength(50);
    expect(first.body.sessions[0]).toMatchObject({ sessionId: 'c259', title: 'prompt 259' });
    expect(typeof first.body.nextCursor).toBe('string');
    const big = await get('?limit=100000');
    expect(big.body.sessions).toHaveLength(200);
    const rest = await get(`?limit=200&cursor=${encodeURIComponent(big.body.nextCursor!)}`);
    expect(rest.body.sessions.map((s) => s.sessionId)).toEqual(Array.from({ length: 60 }, (_, i) => `c${59 - i}`));
    expect(rest.body.nextCursor).toBeUndefined(); // the last page
  });

  it('continues after the cursor while conversations are written: each one exactly once', async () => {
    const store = storeWith(120);
    served = await serveRuns({ model: new ScriptedModel([]), sessions: store }, { basePath: '/api' });
    const seen: string[] = [];
    let cursor: string | undefined;
    let written = 0;
    do {
      const { body } = await get(`?limit=25${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
      seen.push(...body.sessions.map((s) => s.sessionId));
      cursor = body.nextCursor;
      store.append(`new${written++}`, [{ role: 'user', content: 'written while paging' }]);
    } while (cursor !== undefined);
    expect(new Set(seen).size).toBe(seen.length);
    expect(seen.filter((id) => id.startsWith('c'))).toEqual(Array.from({ length: 120 }, (_, i) => `c${119 - i}`));
  });

  it('answers 400 for a bad limit or a cursor it did not give', async () => {
    served = await serveRuns({ model: new ScriptedModel([]), sessions: storeWith(3) }, { basePath: '/api' });
    for (const query of ['?limit=0', '?limit=-1', '?limit=ten', '?limit=1.5']) {
      const { status, body } = await get(query);
      expect(status, query).toBe(400);
      expect(body.error).toMatch(/^limit must be a whole number from 1 to 200/);
    }
    for (const cursor of ['garbage', Buffer.from('[1,2]').toString('base64url'), Buffer.from('{"a":1}').toString('base64url')]) {
      const { status, body } = await get(`?cursor=${cursor}`);
      expect(status, cursor).toBe(400);
      expect(body.error).toMatch(/is not one this server gave: pass the nextCursor of the previous page/);
    }
  });
});
