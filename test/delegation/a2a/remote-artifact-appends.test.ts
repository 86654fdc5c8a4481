import type { StreamResponse } from '@a2a-js/sdk';
import { describe, expect, it } from 'vitest';
import { RemoteUpdates } from '../../../src/delegation/a2a/remote-updates.js';
import { textArtifact } from '../../../src/protocols/a2a/a2a-values.js';
import { cpuTimeMs } from '../../support/cpu-time.js';

/** A chunk of artifact `a` of the remote task, appended to what came before unless it is the first. */
function chunk(text: string, append: boolean): StreamResponse {
  return { payload: { $case: 'artifactUpdate', value: { taskId: 't1', contextId: 'c1', artifact: textArtifact('a', 'answer', '', text), append, lastChunk: false, metadata: undefined } } };
}

describe('RemoteUpdates: a remote agent that streams its answer in tiny chunks', () => {
  it('25,000 appended chunks of 40 characters (the default limits: 25,000 updates, 1,000,000 characters) are read in linear time, each a delta of its own text', () => {
    const updates = new RemoteUpdates({ runId: 'run_1', agentName: 'remote' });
    const piece = (i: number): string => `${String(i).padStart(5, '0')}${'x'.repeat(35)}`;
    // Each chunk used to be compared with the whole artifact before it (a copy per chunk):
    // minutes of CPU in all, a second at a time between two turns of the event loop.
    const budgetMs = 3_000;
    const started = cpuTimeMs(); // CPU time: a busy machine stretches the wall clock, not this
    const deltas: string[] = [];
    for (let i = 0; i < 25_000 && cpuTimeMs() - started < budgetMs; i++) {
      deltas.push(...updates.of(chunk(piece(i), i > 0)).map((delta) => delta.text));
    }
    expect(deltas).toHaveLength(25_000);
    expect(updates.chars).toBe(1_000_000 + 'a'.length); // its text, and its id once (kept as long as the task runs)
    expect(deltas[24_999]).toBe(piece(24_999));
    expect(updates.artifactText).toBe(deltas.join(''));
  });

  it('an artifact sent again whole still adds only what is new, and one that changes its start adds nothing', () => {
    const updates = new RemoteUpdates({ runId: 'run_1', agentName: 'remote' });
    const texts = (response: StreamResponse): string[] => updates.of(response).map((delta) => delta.text);
    expect(texts(chunk('Hello', false))).toEqual(['Hello']);
    expect(texts(chunk('Hello, world', false))).toEqual([', world']);
    expect(texts(chunk('Goodbye', false))).toEqual([]);
    expect(texts(chunk('!', true))).toEqual(['!']);
    expect(updates.artifactText).toBe('Goodbye!');
  });
});
