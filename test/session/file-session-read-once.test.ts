/**
 * A run loads its session, then appends to it: the append trusts where the load found the
 * file ending (same inode, same size) instead of reading and checking every seal again.
 */
import { open, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, expect, it, vi } from 'vitest';
import { FileSessionStore } from '../../src/session/file-session-store.js';
import { workspaceHomePerTest } from '../support/workspace-home-per-test.js';
import { assistant, user } from './session-workspace-kit.js';

const ws = workspaceHomePerTest();
afterEach(() => vi.restoreAllMocks());

/**
 * Counts whole-file reads of `file` through node's FileHandle (node's own class, not ours):
 * reads bringing in at least its size (a whole read reads it in one buffer of its size and
 * one byte more), told apart from the store's other files (its small summary) by the bytes read.
 */
async function countWholeReads(file: string): Promise<{ readonly count: () => number }> {
  const probe = await open(join(ws.dir, 'probe'), 'w');
  const proto = Object.getPrototypeOf(probe) as { read: (this: unknown, ...args: unknown[]) => Promise<{ bytesRead: number }> };
  await probe.close();
  const original = proto.read;
  const { size } = await stat(file);
  let count = 0;
  vi.spyOn(proto, 'read').mockImplementation(async function (this: unknown, ...args: unknown[]) {
    const read = await original.apply(this, args);
    if (read.bytesRead >= size) count += 1;
    return read;
  });
  return { count: () => count };
}

it('reads a 200-message history once for a load and the append after it, and still seals the new lines at their places', async () => {
  const writer = new FileSessionStore(ws.dir, { grantKey: 'key' });
  for (let i = 0; i < 100; i++) await writer.append('s', [user(`q${i}`), assistant(`a${i}`)]);
  const store = new FileSessionStore(ws.dir, { grantKey: 'key' });
  const reads = await countWholeReads(join(ws.dir, '.rxharness', 'sessions', 's.jsonl'));
  expect(await store.load('s')).toHaveLength(200);
  const afterLoad = reads.count();
  await store.append('s', [user('next')]);
  expect(reads.count() - afterLoad).toBe(0);
  // Each store appends after the other's write: neither file is the one it knew, so each reads it again.
  await writer.append('s', [assistant('from elsewhere')]);
  await store.append('s', [user('and again')]);
  expect(reads.count() - afterLoad).toBe(2);
  expect((await new FileSessionStore(ws.dir, { grantKey: 'key' }).load('s')).slice(-3).map((m) => m.content)).toEqual(['next', 'from elsewhere', 'and again']);
});
