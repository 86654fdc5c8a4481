import { describe, expect, it } from 'vitest';
import { checkingCost, unusableRefs } from '../../src/validation/schema-refs.js';

/** `links` `$defs`, each naming the next through `link` (the last a string), under the property `x`. */
const chain = (links: number, link: (next: object) => object): Record<string, unknown> => {
  const $defs: Record<string, object> = { [`l${links}`]: { type: 'string' } };
  for (let i = 0; i < links; i++) $defs[`l${i}`] = link({ $ref: `#/$defs/l${i + 1}` });
  return { type: 'object', $defs, properties: { x: { $ref: '#/$defs/l0' } } };
};
const LINKS: ReadonlyArray<readonly [string, (next: object) => object]> = [
  ['allOf', (next) => ({ allOf: [next, next] })],
  ['anyOf', (next) => ({ anyOf: [next, next] })],
  ['oneOf', (next) => ({ oneOf: [next, { ...next }] })],
  ['items and contains', (next) => ({ type: 'array', items: next, contains: next })],
];
const REFUSED = /^checking one part of a value would apply its subschemas more than 100,000 times \(counted from \/\$defs\/l\d+\): subschemas that apply together .* doubles it at every link\); name each \$def once for each part of a value, or nest fewer unions$/;

// A chain of `$defs` with no recursion, each naming the next twice where both apply: ajv
// applies both, so each link doubles the work (20 links checked one value 2^20 times, 58 ms;
// 30, a minute). It compiles cheaply (each `$def` with refs once), so neither the compile cost
// nor the recursion check saw it.
describe('a schema from outside whose $defs name the next twice where both apply, link after link', () => {
  it.each(LINKS)('is refused at 30 links (%s), saying where and what to change', (_what, link) => {
    expect(unusableRefs(chain(30, link))).toMatch(REFUSED);
  });

  it.each(LINKS)('passes at 5 links (%s): 32 times over is cheap', (_what, link) => {
    expect(unusableRefs(chain(5, link))).toBeUndefined();
  });

  it('passes an ordinary schema naming one $def from two sibling properties', () => {
    const address = { type: 'object', properties: { street: { type: 'string' }, city: { type: 'string' } }, required: ['city'] };
    expect(unusableRefs({ type: 'object', $defs: { address }, properties: { home: { $ref: '#/$defs/address' }, work: { $ref: '#/$defs/address' } } })).toBeUndefined();
  });

  it('passes a $def named from sibling properties, link after link: each is its own part of a value', () => {
    expect(unusableRefs(chain(30, (next) => ({ type: 'object', properties: { a: next, b: next }, additionalProperties: false })))).toBeUndefined();
    expect(unusableRefs(chain(30, (next) => ({ type: 'array', items: [next, next] })))).toBeUndefined();
  });

  it('passes then and else naming the next, link after link: one or the other applies', () => {
    expect(unusableRefs(chain(30, (next) => ({ if: { type: 'string' }, then: next, else: next })))).toBeUndefined();
  });

  it('counts a recursive $def reached through the chain: a tree under 30 doubling links is refused', () => {
    const schema = chain(30, (next) => ({ allOf: [next, next] }));
    const $defs = schema['$defs'] as Record<string, object>;
    $defs['l30'] = { type: 'object', properties: { kids: { type: 'array', items: { $ref: '#/$defs/l30' } } } };
    expect(unusableRefs(schema)).toMatch(REFUSED);
  });
});

/** `chain`'s `$defs` named from `propertyNames` instead: checked against every key of an object. */
const keyChain = (links: number, link: (next: object) => object): Record<string, unknown> => {
  const { properties, ...schema } = chain(links, link);
  return { ...schema, propertyNames: (properties as Record<string, object>)['x'] };
};

// A key has no parts, so no recursion goes through `propertyNames`; but ajv applies a chain
// named there to every key: 27 doubling links held the event loop 2-3 s for `{a:1,b:2}`.
describe('a doubling chain of $defs named from propertyNames, applied to each key', () => {
  it.each(LINKS.slice(0, 3))('is refused at 30 links (%s), from outside and from defineTool', (_what, link) => {
    expect(unusableRefs(keyChain(30, link))).toMatch(REFUSED);
    expect(checkingCost(keyChain(30, link))).toMatch(REFUSED);
  });

  it('counts a key checked again and again from above: 12 links above and 12 below, each cheap, are refused', () => {
    const double = (next: object): object => ({ allOf: [next, next] });
    const $defs = { ...(chain(12, double)['$defs'] as object) } as Record<string, object>;
    // The chain above, `a`-named, its last link checking each key against the chain below.
    for (const [name, def] of Object.entries(chain(12, double)['$defs'] as object)) $defs[`a${name}`] = JSON.parse(JSON.stringify(def).replaceAll('#/$defs/l', '#/$defs/al'));
    $defs['al12'] = { propertyNames: { $ref: '#/$defs/l0' } };
    // Counted where the keys' count, times the links above, passes 100,000: three links above their end.
    expect(unusableRefs({ type: 'object', $defs, properties: { x: { $ref: '#/$defs/al0' } } })).toMatch(/^checking one part of a value would apply its subschemas more than 100,000 times \(counted from \/\$defs\/al9\)/);
    expect(unusableRefs(chain(12, double))).toBeUndefined();
    expect(unusableRefs(keyChain(12, double))).toBeUndefined();
  });

  it('passes an ordinary propertyNames: a pattern, a single $def, or the root itself', () => {
    const name = { type: 'string', pattern: '^[a-z][a-z0-9_]*$', maxLength: 64 };
    expect(unusableRefs({ type: 'object', propertyNames: { pattern: '^[a-z]+$' }, additionalProperties: { type: 'number' } })).toBeUndefined();
    expect(unusableRefs({ type: 'object', $defs: { name }, propertyNames: { $ref: '#/$defs/name' }, properties: { id: { $ref: '#/$defs/name' } } })).toBeUndefined();
    // A key checked against the root has no keys of its own: no recursion, however often named.
    expect(unusableRefs({ type: 'object', allOf: [{ propertyNames: { $ref: '#' } }, { propertyNames: { $ref: '#' } }] })).toBeUndefined();
  });
});
