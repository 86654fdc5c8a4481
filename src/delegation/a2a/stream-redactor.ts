/** What a credential is replaced with. */
export const REDACTED = '[redacted]';

// How much of what went out is kept to look back into: more than any credential is long.
const RECENT_CHARS = 4096;

/** The kinds of text a remote task forwards: answer text, and progress (status messages, one a line). */
export type StreamKind = 'text' | 'thinking';

/** One piece of text a {@link StreamRedactor} let through at the end. */
export interface RedactedTail {
  /** The stream it ends (always the answer text: progress is never held back). */
  readonly kind: StreamKind;
  /** Its text, redacted. */
  readonly text: string;
}

/**
 * Takes credentials out of text forwarded in pieces, so that no way of splitting a secret
 * across pieces lets it through whole, in any way a reader may join them: the answer text
 * alone, the progress alone (its lines joined, with or without their newlines), or both in
 * the order they went out.
 *
 * - Answer text: a piece's tail that may be the start of a secret (a proper prefix of one,
 *   running to the piece's end) is held back until the next answer piece shows whether it
 *   is, or until {@link end}; so `tok` + `en` goes out as `[redacted]`.
 * - Progress: each status message goes out whole at once (a line is never cut or delayed);
 *   a secret one line begins and the next completes has its completing part replaced.
 * - Either kind: a secret begun at the end of what already went out (of the other kind) has
 *   its completing part replaced too.
 *
 * A tail let out at the end may be the start of a secret (never all of it): a remote that
 * sends a token's first characters alone has sent only those.
 *
 * `secrets` is read at every piece: credentials sent later (a request's new header) count
 * from then on. Each must be non-empty and hold no newline (a header value cannot).
 */
export class StreamRedactor {
  #heldText = '';
  // The end of what went out: of both kinds (status messages without their newline), and of each kind.
  #recent = '';
  readonly #recentOf = new Map<StreamKind, string>();

  constructor(private readonly secrets: () => readonly string[]) {}

  /** The part of `piece` that can go out now, redacted; a `thinking` piece is one status message and its `\n`. */
  piece(kind: StreamKind, piece: string): string {
    if (kind === 'text') {
      const { out, held } = this.#scan(kind, this.#heldText + piece, false);
      this.#heldText = held;
      return out;
    }
    const line = piece.endsWith('\n') ? piece.slice(0, -1) : piece;
    return this.#scan(kind, line, true).out + piece.slice(line.length);
  }

  /** What is still held back (the answer's last characters), redacted. */
  end(): RedactedTail[] {
    const held = this.#heldText;
    this.#heldText = '';
    return held ? [{ kind: 'text', text: this.#scan('text', held, true).out }] : [];
  }

  #scan(kind: StreamKind, raw: string, final: boolean): { out: string; held: string } {
    const secrets = this.secrets().filter((s) => s.length > 0).sort((a, b) => b.length - a.length);
    const reach = Math.max(0, ...secrets.map((s) => s.length - 1));
    // Where a secret begun in what already went out ends in `raw` (its part here is replaced), or undefined: hold it all.
    let at = 0;
    for (const recent of [this.#recent, this.#recentOf.get(kind) ?? '']) {
      const context = recent.slice(Math.max(0, recent.length - reach));
      const all = context + raw;
      for (let start = 0; start < context.length; start++) {
        for (const secret of secrets) {
          if (all.startsWith(secret, start) && start + secret.length > context.length) at = Math.max(at, start + secret.length - context.length);
          else if (!final && all.length - start < secret.length && secret.startsWith(all.slice(start))) return this.#let(kind, '', raw);
        }
      }
    }
    let out = at > 0 ? REDACTED : '';
    // Leftmost match first (the longest of those starting there), by indexOf: a megabyte of text is one pass, not a loop per character.
    for (;;) {
      let next = -1;
      let match = '';
      for (const secret of secrets) {
        const found = raw.indexOf(secret, at);
        if (found !== -1 && (next === -1 || found < next)) [next, match] = [found, secret];
      }
      const hold = final ? raw.length : heldFrom(raw, at, reach, secrets);
      if (next === -1 || next > hold) {
        out += raw.slice(at, hold);
        at = hold;
        break;
      }
      out += raw.slice(at, next) + REDACTED;
      at = next + match.length;
    }
    return this.#let(kind, out, raw.slice(at));
  }

  #let(kind: StreamKind, out: string, held: string): { out: string; held: string } {
    this.#recent = (this.#recent + out).slice(-RECENT_CHARS);
    this.#recentOf.set(kind, ((this.#recentOf.get(kind) ?? '') + out).slice(-RECENT_CHARS));
    return { out, held };
  }
}

// Where `raw`'s tail that may be the start of a secret (a proper prefix of one, running to the end) begins; its length if none.
function heldFrom(raw: string, at: number, reach: number, secrets: readonly string[]): number {
  for (let p = Math.max(at, raw.length - reach); p < raw.length; p++) {
    const tail = raw.slice(p);
    if (secrets.some((secret) => secret.length > tail.length && secret.startsWith(tail))) return p;
  }
  return raw.length;
}
