/**
 * A number literal JSON text may spell that JavaScript cannot hold: one with a positive
 * exponent (`1e400`, but also 300 digits and `e10`: digits and exponent add up), or 309
 * digits or more in a row (at least 1e308). Every overflowing literal has one of the two;
 * most matches (`"e5"` inside a string, `1e10`) do not overflow, and cost one walk of the
 * value. Linear: no nested quantifiers.
 */
const MAY_OVERFLOW = /[eE]\+?\d|\d{309}/;

/**
 * Where JSON text `raw`, parsed into `value`, holds a number that overflowed to `Infinity`
 * or `-Infinity` (`1e400`, 400 digits), as a dotted path (`""` for the value itself);
 * undefined when every number is finite. `JSON.parse` reads such a literal without a word,
 * but the value is no JSON any more: `JSON.stringify` writes it `null`, so the events and
 * the approval a human reads would show `null` while the tool gets `Infinity`, and a schema
 * that only asks for a number (valibot's `number()`) lets it through.
 *
 * Looks at the value only when the text has a literal that may overflow (the common call
 * costs one scan of the text), and walks it without recursion (`value` nests at most as
 * deep as the caller allowed, but need not).
 *
 * @example
 * ```ts
 * const raw = '{"n":[1,1e400]}';
 * overflowedNumber(raw, JSON.parse(raw)); // 'n.1'
 * overflowedNumber('{"n":1e300}', { n: 1e300 }); // undefined
 * ```
 */
export function overflowedNumber(raw: string, value: unknown): string | undefined {
  if (!MAY_OVERFLOW.test(raw)) return undefined;
  const stack: { readonly value: unknown; readonly path: string }[] = [{ value, path: '' }];
  for (let item = stack.pop(); item !== undefined; item = stack.pop()) {
    const at = item.value;
    if (typeof at === 'number') {
      if (!Number.isFinite(at)) return item.path;
      continue;
    }
    if (at === null || typeof at !== 'object') continue;
    for (const [key, inner] of Object.entries(at)) stack.push({ value: inner, path: item.path === '' ? key : `${item.path}.${key}` });
  }
  return undefined;
}
