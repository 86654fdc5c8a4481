import { createParser } from 'eventsource-parser';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SseDataParser } from '../../src/model/sse-data-lines.js';

interface Seen {
  data: string[];
  comments: number;
  odd: string[];
}

function ours(chunks: readonly string[]): Seen {
  const seen: Seen = { data: [], comments: 0, odd: [] };
  const parser = new SseDataParser({ onData: (d) => seen.data.push(d), onComment: () => seen.comments++, onOddLine: (l) => seen.odd.push(l), onNoData: () => undefined });
  for (const chunk of chunks) parser.feed(chunk);
  return seen;
}

/** The reference: eventsource-parser, the parser the browser client uses. */
function reference(chunks: readonly string[]): Seen {
  const seen: Seen = { data: [], comments: 0, odd: [] };
  const parser = createParser({
    onEvent: (e) => seen.data.push(e.data),
    onComment: () => seen.comments++,
    onError: (e) => seen.odd.push(e.line ?? ''),
  });
  for (const chunk of chunks) parser.feed(chunk);
  return seen;
}

const newline = fc.constantFrom('\n', '\r', '\r\n');
const value = fc.string({ unit: fc.constantFrom('a', 'b', ' ', ':', '{', '"', 'é', '😀', '\t') });
const line = fc.oneof(
  value.map((v) => `data: ${v}`),
  value.map((v) => `data:${v}`),
  fc.constant('data'),
  fc.constant('data:'),
  value.map((v) => `: ${v}`),
  value.map((v) => `event: ${v}`),
  fc.constant('id: 7'),
  fc.constant('retry: 100'),
  fc.constantFrom('{"error":"nope"}', 'HTTP/1.1 oops', 'datum: x', 'Data: y'),
  fc.constant(''),
);
/** A stream: lines with mixed line ends, cut into chunks at arbitrary places. */
const stream = fc
  .tuple(fc.array(fc.tuple(line, newline), { maxLength: 40 }), fc.array(fc.nat(), { maxLength: 8 }))
  .map(([lines, cuts]) => {
    const text = lines.map(([l, n]) => l + n).join('');
    const at = [...new Set(cuts.map((c) => c % (text.length + 1)))].sort((a, b) => a - b);
    const chunks: string[] = [];
    let from = 0;
    for (const cut of at) {
      chunks.push(text.slice(from, cut));
      from = cut;
    }
    chunks.push(text.slice(from));
    return chunks;
  });

describe('SseDataParser', () => {
  it('property: reports the same data, comments and odd lines as eventsource-parser, however the stream is cut', () => {
    fc.assert(
      fc.property(stream, (chunks) => {
        expect(ours(chunks)).toEqual(reference(chunks));
      }),
      { numRuns: 2000 },
    );
  });

  it('joins data lines, drops an event the stream ends inside, keeps CRLF split across chunks whole', () => {
    expect(ours(['data: a\ndata: b\n\n', 'data: c\r', '\n\r\ndata: unfinished\n']).data).toEqual(['a\nb', 'c']);
  });

  it('takes a lone CR that ends the body as the line end it is', () => {
    const data: string[] = [];
    const parser = new SseDataParser({ onData: (d) => data.push(d), onComment: () => undefined, onOddLine: () => undefined, onNoData: () => undefined });
    parser.feed('data: [DONE]\r\r');
    expect(data).toEqual([]); // the last CR may still be half of a CRLF
    parser.end();
    expect(data).toEqual(['[DONE]']);
  });

  it('reports each event:, id: and retry: line, and each bare line end, as a line without data; not the blank line that ends a comment, a field or an event', () => {
    const reports: string[] = [];
    const parser = new SseDataParser({
      onData: (d) => reports.push(`data ${d}`),
      onComment: () => reports.push('comment'),
      onOddLine: (l) => reports.push(`odd ${l}`),
      onNoData: () => reports.push('none'),
    });
    parser.feed('event: ping\n\nid: 7\nretry: 100\n\n\n\r\n: c\n\nevent: message\ndata: x\n\nodd\n\n');
    expect(reports).toEqual(['none', 'none', 'none', 'none', 'none', 'comment', 'none', 'data x', 'odd odd']);
  });

  it('takes 200,000 events in one chunk and a 2 MB line without a colon (its speed is in bench/, not here)', () => {
    const events = 'data: {"choices":[{"delta":{"content":"x"}}]}\n\n'.repeat(200_000);
    expect(ours([events]).data).toHaveLength(200_000);
    expect(ours(['x'.repeat(2_000_000) + '\n']).odd).toEqual(['x'.repeat(2_000_000)]);
  });
});
