/**
 * Two engines in one process, each with its own `FileSessionStore` on the same workspace
 * folder (a server running two engines, or two stores opened on one folder), answering
 * one-shot runs (no `sessionId`) that delegate. The random lifetimes of such runs' task
 * sessions are kept process-wide (`ephemeralLifetimes`), shared by every store of the
 * folder: one engine's runs must not take the other's task sessions, its deletes must not
 * end the other's task sessions still in use, and files of one's task sessions kept aside
 * and put back are refused through the other's store too.
 */
import { cpSync, readdirSync } from 'node:fs';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, onTestFinished, vi } from 'vitest';
import type { HarnessEngine } from '../../src/engine/harness-engine.js';
import { FileSessionStore } from '../../src/session/file-session-store.js';
import { UnsealedSessionError } from '../../src/session/unsealed-session-error.js';
import type { Tool } from '../../src/tools/tool.js';
import { testAgent, type Turn } from '../support/agent-turns.js';
import { createGate, type Gate } from '../support/deferred.js';
import { offlineEnginePerTest } from '../support/offline-engine.js';
import { TEXT_PARAMETERS } from '../support/test-tools.js';
import { workspaceHomePerTest } from '../support/workspace-home-per-test.js';

const ws = workspaceHomePerTest();
const offline = offlineEnginePerTest();

const GRANT = { toolName: 'bash', subject: 'git push --force' };
const delegate = (prompt: string, taskId?: string) => ({ name: 'task', args: { agent_name: 'beta', prompt, description: prompt, ...(taskId ? { task_id: taskId } : {}) } });
/** What a task answered, read from its result block. */
const answerIn = (text: string): string | undefined => /CDATA\[(.*?)\]\]>/.exec(text)?.[1];
const taskIdIn = (turn: Turn): string => /<task_id>([^<]+)<\/task_id>/.exec(turn.toolResults[0] ?? '')![1]!;
/** The files of a task session (its lock is its run's own). */
const filesOf = (dir: string, taskId: string): string[] => readdirSync(dir).filter((name) => name.startsWith(`${taskId}.`) && !name.endsWith('.lock'));

/**
 * An engine on its own store of the shared folder whose one-shot runs delegate a task to
 * beta; once it is done, its files (and an "always" grant of it) are kept in `aside`; with
 * `hold`, the main agent then waits in a tool until the test opens the gate, resumes the task
 * and delegates another.
 */
async function engineOn(aside: string, hold?: { entered: Gate; gate: Gate }) {
  const store = new FileSessionStore(ws.dir, { home: ws.home });
  const kept: Promise<void>[] = [];
  const holdTool: Tool<{ text: string }> = {
    name: 'hold',
    description: 'Waits.',
    parameters: TEXT_PARAMETERS,
    execute: async () => (hold!.entered.open(), await hold!.gate.promise, 'held'),
  };
  const main = (turn: Turn) => {
    if (turn.step === 1) return { toolCalls: [delegate(turn.prompt)] };
    const taskId = taskIdIn(turn);
    if (turn.step === 2) {
      kept.push(store.saveGrant(taskId, GRANT).then(() => void filesOf(store.dir, taskId).forEach((name) => cpSync(join(store.dir, name), join(aside, name)))));
      if (hold) return { toolCalls: [{ name: 'hold', args: { text: 'wait' } }] };
    }
    // Resumes its task, and starts another: after the other engine's run has ended, this run still saves tasks.
    if (hold && turn.step === 3) return { toolCalls: [delegate('again', taskId), delegate('fresh')] };
    return { text: `final: ${turn.toolResults.slice(1).join('\n') || turn.toolResults[0]}` };
  };
  const o = await offline({ main, beta: (turn) => ({ text: `beta heard ${turn.prompt}` }) }, [testAgent('beta')], {
    sessions: store,
    workspace: ws.dir,
    homeDir: ws.home,
    ...(hold ? { tools: [holdTool] } : {}),
  });
  return { engine: o.engine, store, kept };
}

/** Puts the files kept in `aside` back into `dir`, and expects each store to refuse `taskId`'s task file and history and take no grant from it. */
async function putBackRefused(aside: string, dir: string, taskId: string, stores: readonly FileSessionStore[]): Promise<void> {
  const names = readdirSync(aside).filter((name) => name.startsWith(`${taskId}.`));
  expect(names).toEqual(expect.arrayContaining([`${taskId}.task.json`, `${taskId}.jsonl`, `${taskId}.grants.jsonl`]));
  for (const name of names) cpSync(join(aside, name), join(dir, name));
  for (const store of stores) {
    await expect(store.loadTaskInfo(taskId)).rejects.toBeInstanceOf(UnsealedSessionError);
    await expect(store.load(taskId)).rejects.toBeInstanceOf(UnsealedSessionError);
    expect(await store.loadGrants(taskId)).not.toContainEqual(GRANT);
  }
  for (const name of names) await rm(join(dir, name));
}

const gone = (engine: { store: FileSessionStore }, taskId: string) =>
  vi.waitFor(() => expect(filesOf(engine.store.dir, taskId)).toEqual([]), { timeout: 15_000, interval: 10 });
const taskOf = (engine: HarnessEngine): string => engine.tasks.list()[0]!.taskId;

describe('two engines with their own stores on one folder, answering one-shot runs that delegate', () => {
  it("keep their task sessions apart: one's deletes end none of the other's, and one's files put back are refused by both", async () => {
    const aside = await mkdtemp(join(tmpdir(), 'rxharness-two-engines-'));
    onTestFinished(() => rm(aside, { recursive: true, force: true }));
    const hold = { entered: createGate(), gate: createGate() };
    const a = await engineOn(aside);
    const b = await engineOn(aside, hold);

    const bRun = b.engine.call('b work');
    await hold.entered.promise; // B's task is done, its run goes on (it will resume the task)
    await Promise.all(b.kept);
    const answer = await a.engine.call('a work');
    expect(answerIn(answer.text)).toBe('beta heard a work');
    await Promise.all(a.kept);
    const [ta, tb] = [taskOf(a.engine), taskOf(b.engine)];
    expect(ta).not.toBe(tb);
    await gone(a, ta); // A's run ended: its task session is deleted

    // B's task session, in the same folder, outlives A's deletes: its seals still pass, through either store.
    for (const store of [a.store, b.store]) {
      expect(await store.loadTaskInfo(tb)).toMatchObject({ taskId: tb, agentName: 'beta' });
      expect((await store.load(tb)).length).toBeGreaterThan(0);
      expect(await store.loadGrants(tb)).toContainEqual(GRANT);
    }
    // A's deleted task session, put back while B's run (an ephemeral run of the folder) is live: refused by both stores.
    await putBackRefused(aside, a.store.dir, ta, [b.store, a.store]);

    hold.gate.open();
    const bAnswer = (await bRun).text;
    // B resumed its task after A's deletes, and started another after A's run had ended.
    expect(bAnswer).toContain('CDATA[beta heard again]]>');
    expect(bAnswer).toContain('CDATA[beta heard fresh]]>');
    const tasksOfB = b.engine.tasks.list().map((t) => t.taskId);
    expect(tasksOfB).toHaveLength(2);
    for (const id of tasksOfB) await gone(b, id);
    await putBackRefused(aside, b.store.dir, tb, [a.store, b.store]);
    // Neither counted a delete: no lifetime file for the one-shot runs' task sessions.
    expect(await readdir(join(ws.home, '.rxharness', 'lifetimes')).catch(() => [])).toEqual([]);
  });

  it('run one-shot calls side by side without taking each other\'s task sessions', async () => {
    const aside = await mkdtemp(join(tmpdir(), 'rxharness-two-engines-'));
    onTestFinished(() => rm(aside, { recursive: true, force: true }));
    const [a, b] = [await engineOn(aside), await engineOn(aside)];
    const answers = await Promise.all([0, 1, 2].flatMap((i) => [a.engine.call(`a ${i}`), b.engine.call(`b ${i}`)]));
    expect(answers.map((r) => answerIn(r.text)).sort()).toEqual(['a', 'b'].flatMap((who) => [0, 1, 2].map((i) => `beta heard ${who} ${i}`)));
    const ids = [...a.engine.tasks.list(), ...b.engine.tasks.list()].map((t) => t.taskId);
    expect(new Set(ids).size).toBe(6);
    await Promise.all([...a.kept, ...b.kept]);
    for (const id of ids) await gone(a, id);
    expect(await readdir(join(ws.home, '.rxharness', 'lifetimes')).catch(() => [])).toEqual([]);
  });
});
