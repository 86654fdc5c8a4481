/**
 * What a remote A2A task's stream may carry: a `message` once its task began is no answer
 * (A2A streams one message, or one task's updates), and file and data parts, which show no
 * text, still count against `a2a.maxChars`.
 */
import { describe, expect, it, vi } from 'vitest';
import { artifact, status, task, type StreamScript } from './wire-remote.js';
import { wireRunsPerTest } from './wire-runs.js';

const { remoteRun, cancels, closeRemote } = wireRunsPerTest();

/** An agent message (0.3 wire), naming task `taskId` if given. */
const message = (text: string, taskId?: string) => ({ kind: 'message', messageId: 'm9', role: 'agent', parts: [{ kind: 'text', text }], ...(taskId ? { taskId, contextId: 'c1' } : {}) });

/** A task whose artifact holds `part` and the text `done` (0.3 wire), then completes. */
const withPart = (part: unknown): StreamScript => (send, res) => {
  send(task('working'));
  send({ kind: 'artifact-update', taskId: 't1', contextId: 'c1', artifact: { artifactId: 'a', parts: [part, { kind: 'text', text: 'done' }] }, append: false });
  send(status('completed'));
  res.end();
};

describe('a remote A2A task, a message in the middle of it', () => {
  for (const [name, taskId] of [['naming its task', 't1'], ['naming no task', undefined]] as const) {
    it(`a message ${name} once the task runs is not its answer: the task fails saying so, and is cancelled there`, async () => {
      // The remote keeps the stream (and its task) open: only our cancel ends it.
      const events = await remoteRun({}, (send) => (send(task('working')), send(artifact('half ')), send(message('not the end', taskId))));
      expect(events.at(-1)).toMatchObject({ type: 'RunEnd', abnormal: true, text: 'half ', error: expect.stringContaining('failed: it sent a message in the middle of its task t1') });
      expect(JSON.stringify(events)).not.toContain('not the end');
      await vi.waitFor(() => expect(cancels()).toBe(1), { timeout: 10_000 });
    });
  }

  it('a message as the whole stream, naming a task, is still the answer', async () => {
    const events = await remoteRun({}, (send, res) => (send(message('straight answer', 't1')), res.end()));
    expect(events.at(-1)).toMatchObject({ type: 'RunEnd', abnormal: false, text: 'straight answer' });
    expect(cancels()).toBe(0);
  });
});

describe('a remote A2A task, file and data parts against maxChars', () => {
  const big = 'x'.repeat(2_000);
  const parts = {
    'a data part (its JSON)': { kind: 'data', data: { big } },
    'a file part (its bytes)': { kind: 'file', file: { bytes: Buffer.from(big).toString('base64'), mimeType: 'application/octet-stream' } },
    'a file part (its URL)': { kind: 'file', file: { uri: `https://files.example.com/${big}`, mimeType: 'text/plain' } },
  };
  for (const [name, part] of Object.entries(parts)) {
    it(`${name} of 2,000 characters fails a task allowed 1,000, and it is cancelled there; allowed 3,000, it completes`, async () => {
      const over = await remoteRun({ maxChars: 1_000 }, withPart(part));
      expect(over.at(-1)).toMatchObject({ type: 'RunEnd', abnormal: true, error: expect.stringContaining("failed: it sent more than 1000 characters of text (the engine's a2a.maxChars)") });
      await vi.waitFor(() => expect(cancels()).toBe(1), { timeout: 10_000 });
      await closeRemote();
      const within = await remoteRun({ maxChars: 3_000 }, withPart(part));
      expect(within.at(-1)).toMatchObject({ type: 'RunEnd', abnormal: false, text: 'done' });
    });
  }
});
