/**
 * `fast-check` arbitraries that damage a text file the way editors, merges and careless
 * hands do: characters flipped, inserted or deleted, lines dropped, doubled or swapped, a
 * YAML value replaced by a random one, raw bytes spliced in. Positions are fractions of the
 * current length, so one mutation list applies to any text.
 *
 * @module
 */
import fc from 'fast-check';

/** One edit; `at` is where, as a fraction of the text (or line count) in `[0, 1)`. */
export type Mutation =
  | { readonly kind: 'flip'; readonly at: number; readonly text: string }
  | { readonly kind: 'insert'; readonly at: number; readonly text: string }
  | { readonly kind: 'delete'; readonly at: number; readonly length: number }
  | { readonly kind: 'dropLine' | 'doubleLine' | 'swapLines'; readonly at: number }
  | { readonly kind: 'insertLine'; readonly at: number; readonly text: string }
  | { readonly kind: 'yamlValue'; readonly key: string; readonly value: string };

/** Characters that mean something to YAML or to the front-matter fence, plus odd ones. */
const SPECIALS = ['-', '---', ':', ': ', '\n', '\r\n', '[', ']', '{', '}', '"', "'", '#', ' ', '\t', '*', '&a', '*a', '!', '!!str', '|', '>', '%', '@', '`', ',', '?', '\0', '\r', '\uFEFF', '\u2028', 'é', '🙂'];

/** The front-matter keys a definition knows, and a few it does not. */
const KEYS = ['name', 'description', 'tools', 'disallowedTools', 'model', 'maxSteps', 'hidden', 'enabled', 'permissionRules', 'extra_key'];

// Not fc.double: it leans hard towards tiny values, so every edit would land on the first line.
const fraction = fc.integer({ min: 0, max: 9_999 }).map((n) => n / 10_000);

/** A position as a fraction in `[0, 1)`, spread over the whole range. */
export const position: fc.Arbitrary<number> = fraction;

/** A short piece of text: YAML punctuation, or any code points. */
export const junk: fc.Arbitrary<string> = fc.oneof(fc.constantFrom(...SPECIALS), fc.string({ unit: 'binary', minLength: 1, maxLength: 4 }));

/** A YAML value as it would be written after `key: `: a JSON value (JSON is YAML), junk, or nothing. */
export const yamlValue: fc.Arbitrary<string> = fc.oneof(
  fc.jsonValue({ maxDepth: 2 }).map((v) => JSON.stringify(v) ?? 'null'),
  fc.constantFrom('', '~', 'null', 'yes', 'no', 'on', '0x1F', '1e400', '-1', '0', '.inf', '[read, *]', 'read, grep', '{ tool: bash, action: deny }', '- a\n  - b', '&x [a]', '*x', '!!binary aGVsbG8=', '!!js/function "x"', '|\n  text'),
  junk,
);

/** One random {@link Mutation}. */
export const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  fc.record({ kind: fc.constant('flip' as const), at: fraction, text: junk }),
  fc.record({ kind: fc.constant('insert' as const), at: fraction, text: junk }),
  fc.record({ kind: fc.constant('delete' as const), at: fraction, length: fc.integer({ min: 1, max: 12 }) }),
  fc.record({ kind: fc.constantFrom('dropLine' as const, 'doubleLine' as const, 'swapLines' as const), at: fraction }),
  fc.record({ kind: fc.constant('insertLine' as const), at: fraction, text: fc.oneof(junk, yamlValue.map((v) => `extra: ${v}`)) }),
  fc.record({ kind: fc.constant('yamlValue' as const), key: fc.constantFrom(...KEYS), value: yamlValue }),
);

/** Applies one mutation. */
export function mutate(text: string, m: Mutation): string {
  const pos = (at: number, length: number): number => Math.floor(at * (length + 1));
  switch (m.kind) {
    case 'flip': {
      const i = Math.min(pos(m.at, text.length), Math.max(0, text.length - 1));
      return text.slice(0, i) + m.text + text.slice(i + 1);
    }
    case 'insert': {
      const i = pos(m.at, text.length);
      return text.slice(0, i) + m.text + text.slice(i);
    }
    case 'delete': {
      const i = pos(m.at, text.length);
      return text.slice(0, i) + text.slice(i + m.length);
    }
    case 'yamlValue': {
      // Replace the key's line if there is one, else add it right after the opening fence.
      const line = new RegExp(`^${m.key}:.*$`, 'm');
      const entry = `${m.key}: ${m.value}`;
      return line.test(text) ? text.replace(line, () => entry) : text.replace(/^(---[^\n]*\n)?/, (fence) => `${fence}${entry}\n`);
    }
    default:
      return mutateLines(text, m);
  }
}

function mutateLines(text: string, m: Extract<Mutation, { kind: 'dropLine' | 'doubleLine' | 'swapLines' | 'insertLine' }>): string {
  const lines = text.split('\n');
  const i = Math.min(Math.floor(m.at * lines.length), lines.length - 1);
  if (m.kind === 'dropLine') lines.splice(i, 1);
  else if (m.kind === 'doubleLine') lines.splice(i, 0, lines[i]!);
  else if (m.kind === 'insertLine') lines.splice(i, 0, m.text);
  else if (i + 1 < lines.length) [lines[i], lines[i + 1]] = [lines[i + 1]!, lines[i]!];
  return lines.join('\n');
}

/** Applies mutations in order. */
export function mutateAll(text: string, mutations: readonly Mutation[]): string {
  return mutations.reduce(mutate, text);
}
