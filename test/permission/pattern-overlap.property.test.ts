import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compileCommandPattern } from '../../src/permission/command-pattern.js';
import { commandShape } from '../../src/permission/bash/command-shape.js';
import { patternsOverlap } from '../../src/permission/pattern-overlap.js';

// A command whose arguments are known only when it runs (`git pu${x}sh`) is judged by its
// shape (`git pu*sh`): a deny or ask rule holds when some text fits both its pattern and the
// shape. The check must never miss a text the rule's own matcher would match (a miss lets a
// denied command run), and on a plain command it must say exactly what the matcher says.

const text = fc.array(fc.constantFrom('a', 'b', ' ', '-', '/'), { maxLength: 12 }).map((cs) => cs.join(''));
const pattern = fc
  .array(fc.constantFrom('a', 'b', ' ', '-', '/', '*', '?', '[ab]', '[!a]', '[a-b]', '{a,b}', '{ab,-}', '\\*'), { maxLength: 8 })
  .map((ps) => ps.join(''));

describe('patternsOverlap', () => {
  it('says what the matcher says for a command without run-time parts', () => {
    fc.assert(
      fc.property(pattern, text, (p, t) => {
        expect(patternsOverlap(p, t.replace(/[\\*?[\]{}]/g, '\\$&'))).toBe(compileCommandPattern(p)!(t));
      }),
      { numRuns: 3000 },
    );
  });

  it('never misses: when a rule matches what a shape can become, the shape overlaps the rule', () => {
    // A text, with some stretches of it cut out and put back as `*` (what `$x` could have held).
    const shaped = text.chain((t) =>
      fc.array(fc.nat({ max: t.length }), { maxLength: 4 }).map((cuts) => {
        const sorted = [...new Set(cuts)].sort((x, y) => x - y);
        let shape = '';
        let at = 0;
        sorted.forEach((cut, k) => {
          if (k % 2 === 0) shape += t.slice(at, cut);
          else shape += '*';
          at = cut;
        });
        return { t, shape: sorted.length % 2 === 1 ? `${shape}*` : shape + t.slice(at) };
      }),
    );
    fc.assert(
      fc.property(pattern, shaped, (p, { t, shape }) => {
        if (compileCommandPattern(p)!(t)) expect(patternsOverlap(p, shape)).toBe(true);
      }),
      { numRuns: 3000 },
    );
  });

  it.each([
    ['git push*', 'git pu*sh', true],
    ['git push*', 'git pus?', true],
    ['git push*', 'git *', true],
    ['rm *', 'echo *', false],
    ['git push*', 'git log *', false],
    ['[!a]x', '[!b]x', true],
    ['[a]x', '[b]x', false],
    ['{git,hg} push*', 'hg pu*', true],
  ] as const)('%j and the shape %j: %s', (p, shape, expected) => {
    expect(patternsOverlap(p, shape)).toBe(expected);
  });

  it('answers on the safe side (a deny holds) when the comparison would take too long', () => {
    const long = `echo ${'a'.repeat(1_000_000)}*`;
    expect(patternsOverlap('rm *', long)).toBe(true);
    expect(patternsOverlap('rm *', 'echo a*')).toBe(false);
  });
});

describe('commandShape', () => {
  it.each([
    // The parser gives `pu${x}sh` as `pu$xsh`: where the name ends is lost, so the rest is `*` too.
    ['git', ['pu$xsh'], false, 'git pu*'],
    ['git', ['pu$x/sh'], false, 'git pu*/sh'],
    ['git', ['pus?'], true, 'git pus?'],
    ['git', ['pus[h]', 'origin'], false, 'git pus[h] origin'],
    ['git', ['{push,x}'], false, 'git *'],
    ['git', ['$(…)'], false, 'git *'],
    ['git', ['commit', '-m', 'fix (a*b) !x'], false, undefined],
    ['echo', ['fix $(x) (later) !'], false, 'echo fix *\\(x\\) \\(later\\) \\!'],
  ] as const)('%s %j (a glob: %s) is %j', (name, args, glob, expected) => {
    expect(commandShape(name, args.map((a) => ({ text: a, glob })))).toBe(expected);
  });

  it('keeps the literal parts of a shape literal, so a pattern does not read them as wildcards', () => {
    const shape = commandShape('echo', [{ text: 'a*b$x', glob: false }])!;
    expect(patternsOverlap('echo aXb*', shape)).toBe(false); // the `*` of `a*b` is a character
    expect(patternsOverlap('echo a\\*b*', shape)).toBe(true);
  });
});
