import { describe, expect, it } from 'vitest';
import { a2aServerPerTest } from '../../support/a2a-server-per-test.js';

const a2a = a2aServerPerTest();

/** What an A2A 0.3 stream's `data:` envelopes carry. */
interface Envelope {
  readonly result: { readonly kind: string; readonly append?: boolean; readonly artifact?: { readonly artifactId: string; readonly parts: readonly { readonly text: string }[] }; readonly status?: { readonly state: string } };
}

/**
 * The SDK copies the whole task, with every answer chunk so far, into and out of its store
 * for each update it takes: one chunk per model delta made an answer's cost quadratic (2,000
 * deltas held the event loop for a minute, in one piece). The answer's deltas go out merged,
 * at most one chunk per 100 ms.
 */
describe('a2aHandler: an answer streamed in many small deltas', () => {
  it('1,500 deltas reach a message/stream client as a few appended chunks of the same text, then the whole answer; the task completes', async () => {
    const text = Array.from({ length: 1_500 }, (_, i) => `w${String(i).padStart(3, '0')}`).join('');
    const served = await a2a.serve({ main: () => ({ text, chunkSize: 4 }) });
    const url = `${served.url}/a2a`;
    const answer = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'message/stream', params: { message: { kind: 'message', messageId: 'm1', role: 'user', parts: [{ kind: 'text', text: 'Say it' }] } } }),
    });
    const envelopes = (await answer.text())
      .split('\n\n')
      .filter((frame) => frame.startsWith('data: '))
      .map((frame) => JSON.parse(frame.slice(6)) as Envelope);
    const answers = envelopes.filter((e) => e.result.kind === 'artifact-update' && e.result.artifact?.artifactId === 'answer');
    const chunks = answers.slice(0, -1); // the last is the whole answer, replacing them
    expect(chunks.length).toBeGreaterThan(0);
    expect(chunks.length).toBeLessThan(50);
    expect(chunks.map((e) => e.result.artifact!.parts.map((p) => p.text).join('')).join('')).toBe(text);
    expect(answers.at(-1)!.result).toMatchObject({ append: false, artifact: { parts: [{ text }] } });
    expect(envelopes.at(-1)!.result).toMatchObject({ kind: 'status-update', status: { state: 'completed' } });
  }, 90_000);
});
