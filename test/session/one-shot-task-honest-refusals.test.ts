/**
 * The refusals of a one-shot run's task files say what is true: its task file put back (or
 * read by another process) was not planted or changed, and its transcript put back without
 * its task file is still told a one-shot run's (no `--trust-session` advice, `trustUnsealed`
 * refuses it). A planted task file cannot make a real conversation read as a one-shot run's
 * task, nor be loaded itself.
 */
import { randomUUID } from 'node:crypto';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { workspaceHomePerTest } from '../support/workspace-home-per-test.js';
import { oneShotKit, refusal, said } from './one-shot-kit.js';

const ws = workspaceHomePerTest();
const { byFile, putBackOneShotTask } = oneShotKit(ws);

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
    expect(error?.message).toContain('its task file names such a run, is gone, or is not sealed');
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
