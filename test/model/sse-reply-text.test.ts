import { lastValueFrom, toArray } from 'rxjs';
import { describe, expect, it } from 'vitest';
import type { ModelFinish } from '../../src/model/chat-model.js';
import { httpServerPerTest } from '../support/http-server-per-test.js';
import { HELLO, modelAt, sseReply } from './node-http-support.js';

// A step's text deltas are joined a few at a time while the reply streams (not kept one
// string each until it ends): every delta must still reach the subscriber as it came, and
// the step's text must be every delta in order, whatever their number (at, around and far
// past a join) and whatever they hold (multi-byte and astral characters, a surrogate pair
// split across two deltas, as a server cutting at UTF-16 units sends it).

const http = httpServerPerTest();

/** `count` deltas cycling through awkward pieces: one character, words, é, 😀, halves of a surrogate pair, an emoji sequence. */
function deltas(count: number): string[] {
  const kinds = ['a', 'word ', 'é', '😀', '\ud83d', '\ude00', '👩‍💻', ' 中文 ', '\n', 'x'.repeat(40)];
  return Array.from({ length: count }, (_, i) => `${kinds[i % kinds.length]}${i % 7 === 0 ? String(i) : ''}`);
}

describe('a streamed step: its text, delta by delta and whole', () => {
  it('every delta as it came and the text they make, for counts at, around and far past a join', async () => {
    const counts = [1, 2, 15, 16, 17, 31, 32, 33, 64, 65, 257, 1000];
    const url = await http.serve((req, res) => {
      const count = Number(/^\/n(\d+)\//.exec(req.url ?? '')?.[1]); // the count is in the path: /n<count>/v1/...
      req.resume().on('end', () => res.writeHead(200, { 'content-type': 'text/event-stream' }).end(sseReply(deltas(count))));
    });
    for (const count of counts) {
      const chunks = await lastValueFrom(modelAt(url, { baseURL: `${url}/n${count}/v1` }).stream(HELLO).pipe(toArray()));
      const sent = deltas(count);
      const streamed = chunks.flatMap((chunk) => (chunk.type === 'text-delta' ? [chunk.text] : []));
      expect(streamed, `${count} deltas`).toEqual(sent);
      const finish = chunks.at(-1) as ModelFinish;
      expect(finish.type).toBe('finish');
      expect(finish.text === sent.join(''), `the text of ${count} deltas`).toBe(true);
    }
  });
});
