import { inspect } from 'node:util';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { RawHeaders } from '../../src/model/raw-headers.js';

// A reply's headers are read from Node's raw list rather than copied into a `Headers`: every
// read must answer what a `Headers` with that list appended in order answers, before and
// after a change.

/** What a `Headers` (or what stands in for one) answers to every read. */
function reads(headers: Headers, names: readonly string[]): unknown {
  const each: unknown[] = [];
  headers.forEach((value, name, parent) => each.push([name, value, parent === headers]));
  return {
    get: names.map((name) => headers.get(name)),
    has: names.map((name) => headers.has(name)),
    entries: [...headers.entries()],
    iterated: [...headers],
    keys: [...headers.keys()],
    values: [...headers.values()],
    each,
    setCookie: headers.getSetCookie(),
    printed: inspect(headers),
    copied: [...new Headers(headers)],
  };
}

function built(raw: readonly string[]): Headers {
  const headers = new Headers();
  for (let i = 0; i + 1 < raw.length; i += 2) headers.append(raw[i]!, raw[i + 1]!);
  return headers;
}

const name = fc.constantFrom('Content-Type', 'content-type', 'X-Request-Id', 'x-multi', 'X-Multi', 'Set-Cookie', 'set-cookie', 'Cookie', 'cookie', 'retry-after-ms');
const value = fc.string({ unit: fc.constantFrom('a', 'b', '1', ',', ';', '=', ' ', '\t', 'é') }).map((v) => v.replace(/^[ \t]+$/, 'x'));
const rawList = fc.array(fc.tuple(name, value), { maxLength: 12 }).map((pairs) => pairs.flat());
const asked = ['content-type', 'X-MULTI', 'set-cookie', 'cookie', 'x-request-id', 'Retry-After-Ms', 'absent'];

describe('RawHeaders: a reply’s headers over the raw list', () => {
  it('reads as the Headers of the same list: names in any case, repeated values joined, set-cookie apart, printed alike', () => {
    fc.assert(
      fc.property(rawList, (raw) => {
        expect(reads(new RawHeaders(raw), asked)).toEqual(reads(built(raw), asked));
      }),
      { numRuns: 300 },
    );
  });

  it('after a change (set, append, delete) reads as the Headers changed alike', () => {
    const change = fc.tuple(fc.constantFrom('set', 'append', 'delete'), name, value);
    fc.assert(
      fc.property(rawList, fc.array(change, { maxLength: 4 }), (raw, changes) => {
        const ours = new RawHeaders(raw);
        const theirs = built(raw);
        for (const [how, key, v] of changes) for (const headers of [ours, theirs]) (how === 'delete' ? headers.delete(key) : headers[how](key, v));
        expect(reads(ours, asked)).toEqual(reads(theirs, asked));
      }),
      { numRuns: 200 },
    );
  });

  it('is a Headers to instanceof, and refuses an invalid name as Headers does', () => {
    const ours = new RawHeaders(['X-A', '1']);
    expect(ours).toBeInstanceOf(Headers);
    expect(Object.prototype.toString.call(ours)).toBe('[object Headers]');
    const refusal = (read: () => unknown): unknown => {
      try {
        read();
      } catch (error) {
        return error;
      }
      return 'no error';
    };
    for (const bad of ['bad name', '', 'x\n']) {
      expect(refusal(() => ours.get(bad))).toEqual(refusal(() => new Headers().get(bad)));
      expect(refusal(() => ours.has(bad))).toEqual(refusal(() => new Headers().has(bad)));
      expect(refusal(() => ours.get(bad))).toBeInstanceOf(TypeError);
    }
  });
});
