/**
 * The words of a log reader's "not a stream" failure (`notAStream`). The replay's `TYPE` is
 * asked a round trip after the failed read: it may find the key a stream again ("not a
 * stream but a stream") or gone ("but a none"), or fail ("but a another type").
 */
import { describe, expect, it } from 'vitest';
import { notAStream } from '../../src/backend/not-a-stream.js';

const KEY = 'rxh:log:run_1';
const TAIL = ": it was changed by something else than its run's writer";

describe('the "not a stream" message', () => {
  it('names the type the key holds, with its article', () => {
    expect(notAStream(KEY, 'string').message).toContain(`The event log ${KEY} in Redis is not a stream but a string${TAIL}`);
    expect(notAStream(KEY, 'hash').message).toContain('is not a stream but a hash:');
    expect(notAStream(KEY, 'ReJSON-RL').message).toContain('is not a stream but a ReJSON-RL:');
    expect(notAStream(KEY, 'ordered-thing').message).toContain('is not a stream but an ordered-thing:');
  });

  it('never says a stream is not one, nor names a type it does not know', () => {
    const again = notAStream(KEY, 'stream').message;
    expect(again).toContain(`The event log ${KEY} in Redis was not a stream when read (it is a stream again now)${TAIL}`);
    expect(notAStream(KEY, 'none').message).toContain('was not a stream when read (the key is gone now):');
    expect(notAStream(KEY, undefined).message).toContain(`The event log ${KEY} in Redis is not a stream${TAIL}`);
    for (const message of [again, notAStream(KEY, 'none').message, notAStream(KEY).message]) {
      expect(message).not.toMatch(/but a stream|but a none|a another|undefined/);
    }
  });
});
