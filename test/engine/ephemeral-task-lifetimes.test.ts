/**
 * The task sessions a run without a `sessionId` deletes as it ends (`ephemeralTaskSessions`)
 * leave no lifetime file behind (a server answering one-shot calls that delegate wrote one
 * per task, for ever), and their files, kept aside during the run (the model's `cp`) and put
 * back after the delete, still load, grant and own nothing, for the same store and a new one
 * (as after a restart, nothing of them is left in memory).
 */
import { cpSync, readdirSync } from 'node:fs';
import { mkdtemp, readdir, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, onTestFinished, vi } from 'vitest';
import { ephemeralLifetimes } from '../../src/session/ephemeral-lifetimes.js';
import { FileSessionStore } from '../../src/session/file-session-store.js';
import { UnsealedSessionError } from '../../src/session/unsealed-session-error.js';
import { testAgent } from '../support/agent-turns.js';
import { offlineEnginePerTest } from '../support/offline-engine.js';
import { workspaceHomePerTest } from '../support/workspace-home-per-test.js';

const ws = workspaceHomePerTest();
const offline = offlineEnginePerTest();

const task = (prompt: string) => ({ name: 'task', args: { agent_name: 'beta', prompt, description: prompt } });
const GRANT = { toolName: 'bash', subject: 'git push --force' };
/** Settles once the grant of {@link delegating}'s task session is copied aside. */
let grantKept: Promise<void> | undefined;
/** The task sessions' files (the locks are the runs' own). */
const taskFiles = (dir: string): string[] => readdirSync(dir).filter((name) => name.startsWith('task_') && !name.endsWith('.lock'));

/**
 * An engine whose main agent delegates one task to beta per call;
 * with `aside`, once the task is done, before the run ends, the task session gets a grant
 * and the main agent copies the task session's files there.
 */
async function delegating(store: FileSessionStore, aside?: string) {
  const o = await offline(
    {
      main: (turn) => {
        if (turn.step === 1) return { toolCalls: [task(turn.prompt)] };
        if (aside) {
          for (const name of taskFiles(store.dir)) cpSync(join(store.dir, name), join(aside, name));
          // An "always" grant of the task session too, kept aside once written (its delete waits behind it in its queue).
          const taskId = taskFiles(store.dir).find((name) => name.endsWith('.task.json'))!.replace('.task.json', '');
          grantKept = store.saveGrant(taskId, GRANT).then(() => cpSync(join(store.dir, `${taskId}.grants.jsonl`), join(aside, `${taskId}.grants.jsonl`)));
        }
        return { text: 'done' };
      },
      beta: () => ({ text: 'beta done' }),
    },
    [testAgent('beta')],
    { sessions: store },
  );
  return o.engine;
}

/** Waits for the engine's deletes of the task sessions (in the store's own time; the deadline is for a busy machine). */
async function deleted(store: FileSessionStore): Promise<void> {
  await vi.waitFor(() => expect(taskFiles(store.dir)).toEqual([]), { timeout: 15_000, interval: 10 });
}

describe.each([
  ['the key file in the home folder', () => new FileSessionStore(ws.dir, { home: ws.home })],
  ['a key given in code', () => new FileSessionStore(ws.dir, { grantKey: 'k' })],
])('an ephemeral run\'s task session kept aside and put back, with %s', (_name, make) => {
  it('loads, grants and owns nothing after the engine deleted it', async () => {
    const store = make();
    const aside = await mkdtemp(join(tmpdir(), 'rxharness-aside-'));
    onTestFinished(() => rm(aside, { recursive: true, force: true }));
    const engine = await delegating(store, aside);
    await engine.call('go');
    await grantKept;
    const [taskId] = engine.tasks.list().map((t) => t.taskId);
    const kept = readdirSync(aside).sort();
    // What the attack copied: the task file, its transcript, its summary and its "always" grant.
    expect(kept).toEqual(expect.arrayContaining([`${taskId}.task.json`, `${taskId}.jsonl`, `${taskId}.grants.jsonl`]));
    await deleted(store);
    for (const name of kept) cpSync(join(aside, name), join(store.dir, name));

    for (const fresh of [store, make()]) {
      await expect(fresh.loadTaskInfo(taskId!)).rejects.toBeInstanceOf(UnsealedSessionError);
      await expect(fresh.load(taskId!)).rejects.toBeInstanceOf(UnsealedSessionError);
      expect(await fresh.loadGrants(taskId!)).not.toContainEqual(GRANT);
      expect((await fresh.loadGrants(taskId!)).length).toBe(1); // the line is there, as no grant
    }
  });
});

it('writes no lifetime file for the task sessions of ephemeral runs, however many', async () => {
  const store = new FileSessionStore(ws.dir, { home: ws.home });
  const engine = await delegating(store);
  for (let i = 0; i < 5; i++) await engine.call(`go ${i}`);
  expect(engine.tasks.list()).toHaveLength(5);
  await deleted(store);
  // Each task session was sealed (its key file made), then deleted: none counted a delete.
  const lifetimes = await readdir(join(ws.home, '.rxharness', 'lifetimes')).catch(() => []);
  expect(lifetimes).toEqual([]);
  // Nor is anything kept in memory for them once deleted (the random lifetimes are forgotten).
  const folder = await realpath(store.dir);
  expect(engine.tasks.list().filter((t) => ephemeralLifetimes.of(folder, t.taskId) !== undefined)).toEqual([]);
  // A conversation's delete still counts one.
  await engine.call('kept', { sessionId: 'talk' });
  const itsTasks = engine.tasks.list('talk').length;
  await engine.sessions.delete!('talk');
  expect(await readdir(join(ws.home, '.rxharness', 'lifetimes'))).toHaveLength(1 + itsTasks);
});

it('lets the ephemeral run resume its task while it lasts: its files pass their seals until the delete', async () => {
  const store = new FileSessionStore(ws.dir, { home: ws.home });
  const o = await offline(
    {
      main: (turn) => {
        if (turn.step === 1) return { toolCalls: [task('first')] };
        const taskId = /<task_id>([^<]+)<\/task_id>/.exec(turn.toolResults.at(-1) ?? '')?.[1];
        if (turn.step === 2) return { toolCalls: [{ name: 'task', args: { agent_name: 'beta', prompt: 'again', description: 'again', task_id: taskId ?? '' } }] };
        return { text: `final: ${turn.toolResults.at(-1) ?? ''}` };
      },
      beta: (turn) => ({ text: `beta heard ${turn.prompt}` }),
    },
    [testAgent('beta')],
    { sessions: store },
  );
  const r = await o.engine.call('go');
  expect(r.text).toContain('beta heard again');
  expect(o.engine.tasks.list().map((t) => t.state)).toEqual(['done']);
  await deleted(store);
});
