/**
 * The summary's transcript is sized to fill the summariser's window beside its instructions
 * and its answer, so it must keep to its limit exactly. It kept at least 200 characters of the
 * first message (which carries any earlier summary) and did not count the line saying how many
 * messages were left out, so it could pass its limit by some 250 characters (a property, over
 * random conversations and limits); it still keeps the start of the first message when the
 * limit leaves room for it.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ChatMessage } from '../../../src/model/chat-message.js';
import { summaryTranscript } from '../../../src/session/compaction/summary-transcript.js';

/** Text of 0 to 5,000 units, some of it characters of two units (a cut must not split them). */
const text = fc.oneof(
  fc.string({ maxLength: 300 }),
  fc.tuple(fc.constantFrom('a', 'é', '😀', 'the quick brown fox '), fc.nat(5_000)).map(([piece, n]) => piece.repeat(Math.ceil(n / piece.length))),
);

const message: fc.Arbitrary<ChatMessage> = fc.oneof(
  text.map((content): ChatMessage => ({ role: 'user', content })),
  text.map((content): ChatMessage => ({ role: 'assistant', content })),
  fc.tuple(text, fc.nat(3)).map(([content, n]): ChatMessage => ({
    role: 'assistant',
    content: null,
    tool_calls: Array.from({ length: n + 1 }, (_, i) => ({ id: `c${i}`, type: 'function' as const, function: { name: 'read', arguments: content } })),
  })),
  fc.tuple(text, fc.nat(3)).map(([content, n]): ChatMessage => ({ role: 'tool', tool_call_id: `c${n}`, content })),
);

const lone = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

describe('summaryTranscript', () => {
  it('is never longer than its limit, nor splits a character, and keeps the first message\'s start when there is room', () => {
    fc.assert(
      fc.property(fc.array(message, { minLength: 1, maxLength: 30 }), fc.nat(20_000), (messages, limit) => {
        const transcript = summaryTranscript(messages, limit);
        expect(transcript.length).toBeLessThanOrEqual(limit);
        expect(lone.test(transcript)).toBe(false);
        const whole = summaryTranscript(messages, Number.MAX_SAFE_INTEGER);
        if (whole.length <= limit) expect(transcript).toBe(whole);
        // Room for 200 characters of the first and the line saying what was left out: its start is there.
        const first = summaryTranscript(messages.slice(0, 1), Number.MAX_SAFE_INTEGER);
        if (limit >= 300) expect(transcript.startsWith(first.slice(0, Math.min(first.length, 60)))).toBe(true);
      }),
      { numRuns: 400 },
    );
  });

  it('keeps the newest messages whole and says how many older ones it left out', () => {
    const messages: ChatMessage[] = Array.from({ length: 12 }, (_, i): ChatMessage => ({ role: i % 2 ? 'assistant' : 'user', content: `message ${i} ${'x'.repeat(1_500)}` }));
    const transcript = summaryTranscript(messages, 5_000);
    expect(transcript.length).toBeLessThanOrEqual(5_000);
    expect(transcript.startsWith('USER: message 0 ')).toBe(true);
    expect(transcript).toContain('[... 8 earlier message(s) left out here to fit ...]');
    expect(transcript.endsWith(`ASSISTANT: message 11 ${'x'.repeat(1_500)}`)).toBe(true);
    expect(transcript).toContain(`ASSISTANT: message 9 ${'x'.repeat(1_500)}`);
  });
});
