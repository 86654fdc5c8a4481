import { mkdir, mkdtemp, realpath, rm, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { SessionQueues } from '../../src/session/session-queues.js';

// Two stores of one folder in a process share its write queues (a grant save asked before the
// other store's delete runs before it), also when they were given different paths to it: a
// link to the workspace (or to the folder) is the same folder, and it may not exist yet.
const made: string[] = [];
afterEach(async () => {
  for (const path of made.splice(0)) await rm(path, { recursive: true, force: true });
});

/** A workspace and a link to it beside it. */
async function workspaceAndLink(): Promise<{ ws: string; link: string }> {
  const ws = await realpath(await mkdtemp(join(tmpdir(), 'rx-queues-real-')));
  const link = `${ws}-link`;
  await symlink(ws, link);
  made.push(link, ws);
  return { ws, link };
}

/** Whether a write through `b` waits for one asked first through `a`, still running. */
async function waitsForTheOther(a: SessionQueues, b: SessionQueues): Promise<boolean> {
  let open!: () => void;
  const gate = new Promise<void>((r) => (open = r));
  const order: string[] = [];
  const first = a.enqueue('s', async () => {
    await gate;
    order.push('a');
  });
  const second = b.enqueue('s', async () => void order.push('b'));
  await new Promise((r) => setImmediate(r));
  const waited = !order.includes('b');
  open();
  await Promise.all([first, second]);
  return waited && order.join() === 'a,b';
}

describe('SessionQueues of one folder reached by different paths', () => {
  it('share the queue of a folder that exists', async () => {
    const { ws, link } = await workspaceAndLink();
    await mkdir(join(ws, '.rxharness', 'sessions'), { recursive: true });
    expect(await waitsForTheOther(new SessionQueues(join(ws, '.rxharness', 'sessions')), new SessionQueues(join(link, '.rxharness', 'sessions')))).toBe(true);
  });

  it('share the queue of a folder not made yet (its nearest existing parent is followed)', async () => {
    const { ws, link } = await workspaceAndLink();
    expect(await waitsForTheOther(new SessionQueues(join(link, '.rxharness', 'sessions')), new SessionQueues(join(ws, '.rxharness', 'sessions')))).toBe(true);
  });

  it('a store that wrote before its folder was made and one made after it share the queue', async () => {
    const { ws, link } = await workspaceAndLink();
    const early = new SessionQueues(join(link, '.rxharness', 'sessions'));
    await early.enqueue('first', async () => {});
    await mkdir(join(ws, '.rxharness', 'sessions'), { recursive: true });
    expect(await waitsForTheOther(early, new SessionQueues(join(ws, '.rxharness', 'sessions')))).toBe(true);
  });

  it('still keeps another folder apart: the link\'s folder and a sibling folder share nothing', async () => {
    const { ws, link } = await workspaceAndLink();
    let open!: () => void;
    const held = new SessionQueues(join(link, 'one')).enqueue('s', () => new Promise<void>((r) => (open = r)));
    let wrote = false;
    await new SessionQueues(join(ws, 'two')).enqueue('s', async () => void (wrote = true));
    expect(wrote).toBe(true);
    open();
    await held;
  });
});
