import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { REDACTED, StreamRedactor, type StreamKind } from '../../../src/delegation/a2a/stream-redactor.js';

const TOKEN = 'tok-ken-tok-kenX';

interface Out {
  readonly kind: StreamKind;
  readonly text: string;
}

/** Feeds `pieces` through a redactor of `secrets`, then its end: what went out, in order. */
function forward(secrets: readonly string[], pieces: readonly Out[]): Out[] {
  const redactor = new StreamRedactor(() => secrets);
  const out: Out[] = [];
  for (const { kind, text } of pieces) {
    const let_ = redactor.piece(kind, text);
    if (let_) out.push({ kind, text: let_ });
  }
  return [...out, ...redactor.end()];
}

/** Every way a reader may join what went out: the answer, the progress (with and without its newlines), both in order. */
function views(out: readonly Out[]): string[] {
  const of = (kind: StreamKind) => out.filter((o) => o.kind === kind).map((o) => o.text);
  return [of('text').join(''), of('thinking').join(''), of('thinking').join('').replaceAll('\n', ''), out.map((o) => o.text).join(''), out.map((o) => o.text.replace(/\n$/, '')).join('')];
}

/** `text` cut at `cuts` (sorted, deduplicated, inside it). */
function cut(text: string, cuts: readonly number[]): string[] {
  const at = [0, ...[...new Set(cuts)].filter((c) => c > 0 && c < text.length).sort((a, b) => a - b), text.length];
  return at.slice(1).map((end, i) => text.slice(at[i], end));
}

describe('StreamRedactor: a credential split across forwarded pieces', () => {
  it('answer text: the token split at every index into two pieces, and at every pair of indices into three, goes out as [redacted] only', () => {
    const whole = `echo: ${TOKEN} end`;
    const start = whole.indexOf(TOKEN);
    for (let i = start; i <= start + TOKEN.length; i++) {
      for (let j = i; j <= start + TOKEN.length; j++) {
        const out = forward([TOKEN], cut(whole, [i, j]).map((text) => ({ kind: 'text', text })));
        expect(out.map((o) => o.text).join('')).toBe(`echo: ${REDACTED} end`);
      }
    }
  });

  it('a tail that may start a token is held back until the next piece shows it does not, and the end lets it out', () => {
    const redactor = new StreamRedactor(() => [TOKEN]);
    expect(redactor.piece('text', 'say tok-ken')).toBe('say ');
    expect(redactor.piece('text', '-top')).toBe('tok-ken-top');
    expect(redactor.piece('text', ' tok')).toBe(' ');
    expect(redactor.end()).toEqual([{ kind: 'text', text: 'tok' }]);
  });

  it('status messages go out whole and at once; a token one begins and the next completes has its completing part replaced', () => {
    const redactor = new StreamRedactor(() => [TOKEN]);
    expect(redactor.piece('thinking', 'sending tok-ken-\n')).toBe('sending tok-ken-\n');
    expect(redactor.piece('thinking', 'tok-kenX now\n')).toBe(`${REDACTED} now\n`);
    expect(redactor.piece('thinking', 'plain\n')).toBe('plain\n');
  });

  it('a token begun in answer text and completed in a status message (or the reverse) is redacted where it completes', () => {
    for (let i = 1; i < TOKEN.length; i++) {
      for (const [first, second] of [['text', 'thinking'], ['thinking', 'text']] as const) {
        const pieces = [{ kind: first, text: `a ${TOKEN.slice(0, i)}${first === 'thinking' ? '\n' : ''}` }, { kind: second, text: `${TOKEN.slice(i)} b${second === 'thinking' ? '\n' : ''}` }];
        for (const view of views(forward([TOKEN], pieces))) expect(view).not.toContain(TOKEN);
      }
    }
  });

  it('a secret learnt later counts from then on; a shorter secret inside a held tail is still redacted at the end', () => {
    const secrets: string[] = [];
    const redactor = new StreamRedactor(() => secrets);
    expect(redactor.piece('text', 'before the-new-key')).toBe('before the-new-key');
    secrets.push('the-new-key');
    expect(redactor.piece('text', ' after the-new-key')).toBe(` after ${REDACTED}`);
    const both = new StreamRedactor(() => ['abcdefghij', 'cdefgh']);
    expect(both.piece('text', 'x abcdefgh')).toBe('x ');
    expect(both.end()).toEqual([{ kind: 'text', text: `ab${REDACTED}` }]);
  });

  it('property: however a text is split across pieces of either kind, no view holds a secret; answer text alone is exactly the text with its secrets redacted', () => {
    // Few letters, so that texts are full of near-misses and overlapping starts of the secrets.
    const letters = fc.constantFrom('a', 'b', 'c', '-', ' ');
    const secret = fc.string({ unit: letters, minLength: 8, maxLength: 12 });
    fc.assert(
      fc.property(
        fc.array(secret, { minLength: 1, maxLength: 3 }),
        fc.array(fc.oneof(fc.string({ unit: letters, maxLength: 6 }), fc.nat({ max: 2 })), { maxLength: 12 }),
        fc.array(fc.nat({ max: 80 }), { maxLength: 6 }),
        fc.array(fc.boolean(), { minLength: 10, maxLength: 10 }),
        (secrets, parts, cuts, thinking) => {
          const text = parts.map((p) => (typeof p === 'number' ? secrets[p % secrets.length] : p)).join('');
          const pieces = cut(text, cuts);
          const answerOnly = forward(secrets, pieces.map((t) => ({ kind: 'text', text: t })));
          for (const view of views(answerOnly)) for (const s of secrets) expect(view).not.toContain(s);
          if (secrets.length === 1) expect(answerOnly.map((o) => o.text).join('')).toBe(text.replaceAll(secrets[0]!, REDACTED));
          // Pieces of both kinds (status messages end with a newline, as the remote's do).
          const mixed = pieces.map((t, i) => (thinking[i % thinking.length] ? { kind: 'thinking' as const, text: `${t}\n` } : { kind: 'text' as const, text: t }));
          for (const view of views(forward(secrets, mixed))) for (const s of secrets) expect(view).not.toContain(s);
        },
      ),
      { numRuns: 1000 },
    );
  });
});
