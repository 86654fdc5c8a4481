/**
 * The refusals of a one-shot run's task files say what is true: its task file put back (or
 * read by another process) was not planted or changed, and its transcript put back without
 * its task file is still told a one-shot run's (no `--trust-session` advice, `trustUnsealed`
 * refuses it). A planted task file cannot make a real conversation read as a one-shot run's
 * task, nor be loaded itself.
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

/** A one-shot run's task session as the engine writes and deletes it, the files named `kept` copied aside before the delete and put back after it. */
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

describe("a one-shot run's task files put back", () => {
  it('the task file, read to resume the task, is refused as a one-shot task\'s, not as planted or changed', async () => {
    const { taskId } = await putBackOneShotTask(['jsonl', 'task.json']);
    const error = await refusal(byFile().loadTaskInfo(taskId));
    expect(error?.name).toBe('UnsealedSessionError');
    expect(error?.what).toBe('one-shot-task-file');
    expect(error?.message).toContain(`Task "${taskId}" was not resumed: its task file`);
    expect(error?.message).toContain('is that of a task delegated by a one-shot run');
    expect(error?.message).toContain('it loads only there');
    expect(error?.message).not.toContain('planted');
    expect(error?.message).not.toContain('--trust-session');
  });

  it('the transcript without its task file is refused as a one-shot task\'s, and trustUnsealed seals nothing', async () => {
    const { taskId, dir } = await putBackOneShotTask(['jsonl']);
    const file = join(dir, `${taskId}.jsonl`);
    const before = await readFile(file, 'utf8');
    const error = await refusal(byFile().load(taskId));
    expect(error?.what).toBe('one-shot-task');
    expect(error?.message).toContain('its task file names such a run or is gone');
    expect(error?.message).not.toContain('continue it once with --trust-session');
    await expect(byFile([taskId]).load(taskId)).rejects.toMatchObject({ what: 'one-shot-task' });
    expect(await readFile(file, 'utf8')).toBe(before);
  });
});

describe('a planted task file naming a real conversation, beside a one-shot transcript', () => {
  for (const real of ['my-talk', `ses_${randomUUID()}`]) {
    it(`neither loads nor makes the conversation "${real.slice(0, 7)}..." a one-shot task: it keeps the usual advice and --trust-session keeps it`, async () => {
      await putBackOneShotTask(['jsonl']);
      const store = byFile();
      await store.append(real, said);
      // Planted: the conversation named as a task of a made-up one-shot run (no transcript of it).
      await writeFile(join(store.dir, `${real}.task.json`), JSON.stringify({ taskId: real, agentName: 'beta', description: 'x', ownerSessionId: `ses_${randomUUID()}` }));
      await expect(byFile().loadTaskInfo(real)).rejects.toMatchObject({ what: 'task' });
      const file = join(store.dir, `${real}.jsonl`);
      await writeFile(file, (await readFile(file, 'utf8')).replace('done', 'DONE'));
      const error = await refusal(byFile().load(real));
      expect(error?.what).toBe('history');
      expect(error?.message).toContain('continue it once with --trust-session');
      expect((await byFile([real]).load(real)).map((m) => m.content)).toEqual(['scan the repo', 'DONE']);
    });
  }
});
