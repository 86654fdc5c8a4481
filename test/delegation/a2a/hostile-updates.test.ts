/**
 * A hostile remote's updates: artifacts whose ids are megabytes long (each id is kept as long
 * as the task runs), and a message naming another task.
 */
import { describe, expect, it, vi } from 'vitest';
import type { AgentEvent } from '../../../src/events/agent-event.js';
import { artifact, status, task, type StreamScript } from './wire-remote.js';
import { wireRunsPerTest } from './wire-runs.js';

const wire = wireRunsPerTest();
const cancels = wire.cancels;

/** The remote child's events, when the main agent delegates one task to the wire remote writing `script`: one run, ended once. */
async function childOf(script: StreamScript): Promise<AgentEvent[]> {
  const child = await wire.childOf(script);
  expect(child.filter((e) => e.type === 'RunEnd')).toHaveLength(1);
  return child;
}

/** An artifact of id `artifactId` without text: only its id is kept. */
const emptyArtifact = (artifactId: string) => ({ kind: 'artifact-update', taskId: 't1', contextId: 'c1', artifact: { artifactId, parts: [] }, append: false });

describe('a hostile remote A2A agent, its updates', () => {
  it('empty artifacts whose ids are 600,000 characters each: the ids count as text, so the task fails past 1,000,000, and is cancelled there', async () => {
    // Each id is kept until the task ends: 25,000 such updates would have kept 15 GB.
    const child = await childOf((send) => {
      send(task('working'));
      for (const n of [1, 2, 3]) send(emptyArtifact(`${n}${'i'.repeat(600_000)}`));
      send(status('completed', 'done'));
    });
    expect(child.at(-1)).toMatchObject({ type: 'RunEnd', abnormal: true, error: expect.stringContaining('failed: it sent more than 1000000 characters of text') });
    await vi.waitFor(() => expect(cancels()).toBe(1), { timeout: 10_000 });
  });

  it('an artifact sent again under its id counts its id once', async () => {
    const id = 'i'.repeat(400_000);
    const child = await childOf((send, res) => {
      send(task('working'));
      for (const text of ['a', 'b', 'c']) send({ ...emptyArtifact(id), artifact: { artifactId: id, parts: [{ kind: 'text', text }] }, append: true });
      send(status('completed'));
      res.end();
    });
    expect(child.at(-1)).toMatchObject({ type: 'RunEnd', abnormal: false, text: 'abc' });
  });

  it("a message naming another task is not taken as the task's answer: the task fails saying so, and is cancelled there", async () => {
    const message = { kind: 'message', messageId: 'm2', role: 'agent', parts: [{ kind: 'text', text: 'theirs' }], taskId: 't2', contextId: 'c1' };
    const child = await childOf((send) => (send(task('working')), send(artifact('mine ')), send(message)));
    expect(child.at(-1)).toMatchObject({ type: 'RunEnd', abnormal: true, text: 'mine ', error: expect.stringContaining('failed: it sent an update for task t2 (its task is t1): one stream carries one task') });
    expect(JSON.stringify(child)).not.toContain('theirs');
    await vi.waitFor(() => expect(cancels()).toBe(1), { timeout: 10_000 });
  });

  it('a message without a task (a direct answer) is still the answer', async () => {
    const message = { kind: 'message', messageId: 'm1', role: 'agent', parts: [{ kind: 'text', text: 'straight answer' }] };
    const child = await childOf((send, res) => (send(message), res.end()));
    expect(child.at(-1)).toMatchObject({ type: 'RunEnd', abnormal: false, text: 'straight answer' });
  });
});
