/**
 * A refused task record's id and key are quoted in the message bounded once escaped: a name
 * of controls cut to 200 and escaped after came out six times that (`\u0001` each).
 */
import { describe, expect, it } from 'vitest';
import { UnsealedSessionError } from '../../src/session/unsealed-session-error.js';

describe('UnsealedSessionError for a stored record', () => {
  it('quotes an id and a key of controls in at most 200 characters each, start and end kept', () => {
    const id = `t${'\u0001'.repeat(100_000)}end`;
    const message = new UnsealedSessionError(id, `rxh:task:${id}`, [], 'task', 'is not JSON').message;
    const quoted = [...message.matchAll(/"(?:[^"\\]|\\.)*"/g)].map((m) => m[0]);
    expect(quoted).toHaveLength(2);
    for (const name of quoted) {
      expect(name.length).toBeLessThanOrEqual(200);
      expect(name).toMatch(/^"(rxh:task:)?t(\\u0001)+ \[\.\.\. \d+ characters cut \.\.\.\] (\\u0001)+end"$/);
    }
    expect(message).not.toMatch(/[\u0000-\u001f]/);
  });
});
