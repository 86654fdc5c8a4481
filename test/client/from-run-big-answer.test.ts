/**
 * `fromRun` follows a run whose answer is as long as the engine takes from a model
 * (`MAX_REPLY_CHARS`), whatever its characters: its `RunEnd` as JSON may be six times as long
 * (`\u0001` is written `\\u0001`), far past the 10 MiB the client once refused (review 56).
 */
import { lastValueFrom, toArray } from 'rxjs';
import { afterEach, describe, expect, it } from 'vitest';
import { fromRun, startRun } from '../../src/client/index.js';
import { ScriptedModel } from '../../src/index.js';
import { MAX_REPLY_CHARS } from '../../src/model/reply-limit.js';
import { serveRuns, type RunsServer } from '../http/http-kit.js';

let served: RunsServer | undefined;
afterEach(async () => {
  await served?.close();
  served = undefined;
});

/** The `RunEnd` text `fromRun` delivers for a run answering `text`, or its failure. */
async function followed(text: string): Promise<string> {
  served = await serveRuns({ model: new ScriptedModel(() => ({ text })) });
  const { runId } = await startRun(served.url, { prompt: 'hi' });
  const events = await lastValueFrom(fromRun(served.url, runId).pipe(toArray()));
  const end = events.at(-1)!.event;
  return end.type === 'RunEnd' ? end.text : `ended with ${end.type}`;
}

describe('fromRun and the longest answers', () => {
  it('6 Mi quotes (12 Mi characters as JSON) arrive whole', async () => {
    const text = '"'.repeat(6 * 1024 * 1024);
    expect(await followed(text)).toBe(text);
  }, 60_000);

  it('MAX_REPLY_CHARS control characters (six times as many as JSON) arrive whole', async () => {
    const text = '\u0001'.repeat(MAX_REPLY_CHARS);
    expect(JSON.stringify(text).length).toBeGreaterThan(6 * MAX_REPLY_CHARS);
    expect(await followed(text)).toBe(text);
  }, 60_000);
});
