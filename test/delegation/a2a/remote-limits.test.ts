/**
 * A remote task's limits come from the engine's `a2a` options (`maxUpdates`, `maxChars`),
 * as the task runner hands them to the launcher.
 */
import { describe, expect, it, vi } from 'vitest';
import { artifact, status, task, type StreamScript } from './wire-remote.js';
import { wireRunsPerTest } from './wire-runs.js';

const { remoteRun, cancels, closeRemote } = wireRunsPerTest();

/** A remote that sends `count` status updates, then completes with `answer`. */
const talkative = (count: number, answer: string): StreamScript => (send, res) => {
  send(task('working'));
  for (let i = 1; i < count; i++) send(status('working', `step ${i}`));
  send(artifact(answer));
  send(status('completed'));
  res.end();
};

describe('a2a.maxUpdates and a2a.maxChars', () => {
  it('maxUpdates: a task past it fails naming the option, and is cancelled there', async () => {
    const events = await remoteRun({ maxUpdates: 5 }, talkative(10, 'done'));
    expect(events.at(-1)).toMatchObject({ type: 'RunEnd', abnormal: true, error: expect.stringContaining("failed: it sent more than 5 updates without finishing (the engine's a2a.maxUpdates)") });
    await vi.waitFor(() => expect(cancels()).toBe(1), { timeout: 10_000 });
  });

  it('maxUpdates: a task within it completes (30 updates, over the 5 above)', async () => {
    const events = await remoteRun({ maxUpdates: 40 }, talkative(30, 'done'));
    expect(events.at(-1)).toMatchObject({ type: 'RunEnd', abnormal: false, text: 'done' });
  });

  it('maxChars: a task past it fails naming the option, and is cancelled there; one within it completes', async () => {
    const over = await remoteRun({ maxChars: 10 }, (send) => (send(task('working')), send(artifact('0123456789')), send(artifact('x', true))));
    expect(over.at(-1)).toMatchObject({ type: 'RunEnd', abnormal: true, error: expect.stringContaining("failed: it sent more than 10 characters of text (the engine's a2a.maxChars)") });
    await vi.waitFor(() => expect(cancels()).toBe(1), { timeout: 10_000 });
    await closeRemote();
    const within = await remoteRun({ maxChars: 20 }, talkative(1, '0123456789'));
    expect(within.at(-1)).toMatchObject({ type: 'RunEnd', abnormal: false, text: '0123456789' });
  });
});
