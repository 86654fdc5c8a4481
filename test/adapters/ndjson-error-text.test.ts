/**
 * A hostile NDJSON file's text is quoted in the parse error's message, and messages are
 * printed to terminals: its escapes must show as marks (`<U+001B>`), never act. The `line`
 * field keeps the text as read.
 */
import { of } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { NdjsonParseError, parseNdjson } from '../../src/adapters/index.js';

const ESCAPES = '\u001b]0;owned\u0007\u001b[2J\u009b1A\u0008';
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;

function parseError(input: string): NdjsonParseError {
  let caught: unknown;
  of(input).pipe(parseNdjson()).subscribe({ error: (e: unknown) => (caught = e) });
  if (!(caught instanceof NdjsonParseError)) throw new Error('expected an NdjsonParseError');
  return caught;
}

describe('NdjsonParseError quotes hostile text safely', () => {
  it('a line that is not JSON: controls marked in the message (JSON.parse\'s words quote it too), kept in `line`', () => {
    const error = parseError(`not json ${ESCAPES}\n`);
    expect(error.message).not.toMatch(CONTROL);
    expect(error.message).toContain('not json <U+001B>]0;owned<U+0007><U+001B>[2J<U+009B>1A<U+0008>');
    expect(error.line).toBe(`not json ${ESCAPES}`);
  });

  it('a line that is JSON but no event, with escapes inside a string', () => {
    const error = parseError(`${JSON.stringify({ type: `Run${ESCAPES}` })}\n`);
    expect(error.message).toContain('is not an agent event');
    expect(error.message).not.toMatch(CONTROL); // JSON escapes C0 controls, not C1 ones (\u009b) nor DEL
  });
});
