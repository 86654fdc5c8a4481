/**
 * Only a task file whose seal checks says a task session is a conversation's: a file planted
 * beside a one-shot run's task transcript, naming a conversation that stored its transcript,
 * no longer makes the refusal advise `--trust-session` (it is no task file: the task stays a
 * one-shot run's). A sealed one still does, and a one-shot run's own task file put back (whose
 * seal check throws its own refusal) leaves the history's refusal as a one-shot task's.
 */
import { randomUUID } from 'node:crypto';
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { ephemeralLifetimes } from '../../src/session/ephemeral-lifetimes.js';
import { FileSessionStore } from '../../src/session/file-session-store.js';
import type { UnsealedSessionError } from '../../src/session/unsealed-session-error.js';
import { workspaceHomePerTest } from '../support/workspace-home-per-test.js';

const ws = workspaceHomePerTest();
const byFile = (trustUnsealed?: string[]) => new FileSessionStore(ws.dir, { home: ws.home, ...(trustUnsealed ? { trustUnsealed } : {}) });
const said = [{ role: 'user' as const, content: 'scan the repo' }, { role: 'assistant' as const, content: 'done' }];
const refusal = (p: Promise<unknown>) => p.then(() => undefined, (e: unknown) => e as UnsealedSessionError);
const ONE_SHOT_ADVICE = 'its task file names such a run or is gone';
const TRUST_ADVICE = 'continue it once with --trust-session';

/** A one-shot run's task session written and deleted by the engine, the files `kept` copied aside before and put back after. */
async function putBackOneShotTask(kept: readonly ('jsonl' | 'task.json')[]): Promise<{ taskId: string; dir: string }> {
  const store = byFile();
  const owner = `ses_${randomUUID()}`;
  const taskId = `task_${randomUUID()}`;
  ephemeralLifetimes.open(owner);
  await store.saveTaskInfo({ taskId, agentName: 'beta', description: 'scan', ownerSessionId: owner });
  await store.append(taskId, said);
  const aside = await mkdtemp(join(tmpdir(), 'rxharness-aside-'));
  onTestFinished(() => rm(aside, { recursive: true, force: true }));
  for (const ext of kept) await cp(join(store.dir, `${taskId}.${ext}`), join(aside, `${taskId}.${ext}`));
  ephemeralLifetimes.close(owner);
  await store.delete(taskId);
  for (const ext of kept) await cp(join(aside, `${taskId}.${ext}`), join(store.dir, `${taskId}.${ext}`));
  return { taskId, dir: store.dir };
}

describe('the wording of a task session\'s refusal, by its task file\'s seal', () => {
  it('a planted task file naming a conversation with a transcript leaves a one-shot task a one-shot task\'s (no --trust-session advice, nothing sealed)', async () => {
    const { taskId, dir } = await putBackOneShotTask(['jsonl']);
    const real = `ses_${randomUUID()}`;
    await byFile().append(real, said); // a conversation that stored its transcript
    await writeFile(join(dir, `${taskId}.task.json`), JSON.stringify({ taskId, agentName: 'beta', description: 'scan', ownerSessionId: real }));
    const error = await refusal(byFile().load(taskId));
    expect(error?.what).toBe('one-shot-task');
    expect(error?.message).toContain(ONE_SHOT_ADVICE);
    expect(error?.message).not.toContain(TRUST_ADVICE);
    const file = join(dir, `${taskId}.jsonl`);
    const before = await readFile(file, 'utf8');
    await expect(byFile([taskId]).load(taskId)).rejects.toMatchObject({ what: 'one-shot-task' });
    expect(await readFile(file, 'utf8')).toBe(before);
  });

  it('a sealed task file of a conversation with a transcript keeps the --trust-session advice, and --trust-session takes the lines', async () => {
    const owner = `ses_${randomUUID()}`;
    const store = byFile();
    await store.append(owner, said);
    const taskId = `task_${randomUUID()}`;
    await store.saveTaskInfo({ taskId, agentName: 'beta', description: 'scan', ownerSessionId: owner });
    await store.append(taskId, said);
    const file = join(store.dir, `${taskId}.jsonl`);
    await writeFile(file, (await readFile(file, 'utf8')).replace('done', 'DONE'));
    const error = await refusal(byFile().load(taskId));
    expect(error?.what).toBe('history');
    expect(error?.message).toContain(TRUST_ADVICE);
    expect((await byFile([taskId]).load(taskId)).map((m) => m.content)).toEqual(['scan the repo', 'DONE']);
  });

  it("a one-shot run's own task file put back: its transcript is refused as a one-shot task's, not with the task file's refusal", async () => {
    const { taskId } = await putBackOneShotTask(['jsonl', 'task.json']);
    await expect(byFile().loadTaskInfo(taskId)).rejects.toMatchObject({ what: 'one-shot-task-file' });
    const error = await refusal(byFile().load(taskId));
    expect(error?.what).toBe('one-shot-task');
    expect(error?.file).toMatch(/\.jsonl$/);
    expect(error?.message).not.toContain(TRUST_ADVICE);
    await expect(byFile([taskId]).load(taskId)).rejects.toMatchObject({ what: 'one-shot-task' });
  });
});
