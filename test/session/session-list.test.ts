/**
 * SessionStore.list() of the memory and file stores: conversations only (task sessions left
 * out), titled by their first prompt (a compaction does not change it), most recently active
 * first, gone once deleted; the file store's list survives a restart and names ids it had to
 * encode.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { FileSessionStore } from '../../src/session/file-session-store.js';
import { MemorySessionStore } from '../../src/session/memory-session-store.js';
import type { SessionStore } from '../../src/session/session-store.js';
import { makeWorkspace, type TestWorkspace } from '../support/tool-context.js';

let workspace: TestWorkspace | undefined;
afterEach(async () => {
  vi.useRealTimers();
  await workspace?.cleanup();
  workspace = undefined;
});

const user = (content: string) => ({ role: 'user' as const, content });
const assistant = (content: string) => ({ role: 'assistant' as const, content });

/** Three conversations and a task session, written a second apart (file times have coarse clocks). */
async function fill(store: SessionStore, tick: () => Promise<void>): Promise<void> {
  await store.append('older', [user('First   question\nover two lines'), assistant('a')]);
  await tick();
  await store.saveTaskInfo?.({ taskId: 'task_1', agentName: 'explore', description: 'd', ownerSessionId: 'older' });
  await store.append('task_1', [user('a task prompt'), assistant('t')]);
  await store.append('Newer Ünïcode', [user('x'.repeat(100))]);
  await tick();
  await store.append('older', [user('a later turn'), assistant('b')]); // older is now the most recent
  await store.replace?.('older', [user('Summary of the earlier turns'), assistant('b')]);
}

describe.each([
  ['MemorySessionStore', async () => new MemorySessionStore()],
  ['FileSessionStore', async () => new FileSessionStore((workspace = await makeWorkspace()).dir, { home: workspace.home })],
] as const)('%s.list()', (_name, make) => {
  it('names conversations by their first prompt, most recently active first, without task sessions', async () => {
    const store = await make();
    let now = Date.UTC(2026, 0, 1);
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(now);
    await fill(store, async () => {
      now += 1000;
      vi.setSystemTime(now);
      // the file store dates a session by its file: make the file's time move as well
      if (store instanceof FileSessionStore) await new Promise((resolve) => setTimeout(resolve, 1100));
    });
    const list = await store.list!();
    expect(list.map((s) => [s.sessionId, s.title])).toEqual([
      ['older', 'First question over two lines'], // the archive's first prompt, not the summary
      ['Newer Ünïcode', `${'x'.repeat(79)}…`],
    ]);
    expect(list[0]!.lastActivityAt).toBeGreaterThan(list[1]!.lastActivityAt);
    await store.delete!('older');
    expect((await store.list!()).map((s) => s.sessionId)).toEqual(['Newer Ünïcode']);
  });
});

describe('FileSessionStore.list() after a restart', () => {
  it('lists what an earlier store wrote', async () => {
    workspace = await makeWorkspace();
    await new FileSessionStore(workspace.dir, { home: workspace.home }).append('notes', [user('Remember 7')]);
    expect((await new FileSessionStore(workspace.dir, { home: workspace.home }).list()).map((s) => [s.sessionId, s.title])).toEqual([['notes', 'Remember 7']]);
  });

  it('is empty before anything was written', async () => {
    workspace = await makeWorkspace();
    expect(await new FileSessionStore(workspace.dir, { home: workspace.home }).list()).toEqual([]);
  });

  it('skips a planted file it cannot read (a symlink out of the folder) and lists the others', async () => {
    workspace = await makeWorkspace();
    const store = new FileSessionStore(workspace.dir, { home: workspace.home });
    await store.append('notes', [user('Remember 7')]);
    const { symlink, writeFile } = await import('node:fs/promises');
    const { join } = await import('node:path');
    await writeFile(join(workspace.dir, 'outside.jsonl'), `${JSON.stringify(user('secret'))}\n`);
    await symlink(join(workspace.dir, 'outside.jsonl'), join(workspace.dir, '.rxharness', 'sessions', 'planted.jsonl'));
    expect((await store.list()).map((s) => [s.sessionId, s.title])).toEqual([['notes', 'Remember 7']]);
  });
});

