import { afterEach, describe, expect, it, vi } from 'vitest';
import { closest } from '../../src/errors/did-you-mean.js';
import { parseAgentMarkdown } from '../../src/subagent/index.js';

// A cloned repository's definition may hold keys of any length (a file runs to 256 KiB), and
// every unknown key is offered a did-you-mean while the engine starts, synchronously. The edit
// distance costs the product of the lengths, so a key far longer than any known key must not
// reach it: 32 such files blocked the engine's start for over 5 seconds.
const lengths = vi.hoisted(() => [] as number[]);
vi.mock('fastest-levenshtein', async (original) => {
  const real = await original<typeof import('fastest-levenshtein')>();
  return {
    ...real,
    distance: (a: string, b: string) => {
      lengths.push(a.length, b.length);
      return real.distance(a, b);
    },
  };
});

afterEach(() => {
  lengths.length = 0;
});

describe('closest and a word far longer than every candidate', () => {
  it('answers without computing an edit distance', () => {
    expect(closest(`x${'k'.repeat(200_000)}`, ['tools', 'disallowedTools', 'maxSteps'])).toBeUndefined();
    expect(lengths).toEqual([]);
  });

  it('still finds the same letters spelt with many "_" or "-", which squash to a candidate', () => {
    expect(closest('m_a_x_s_t_e_p_s', ['tools', 'maxSteps'])).toBe('maxSteps');
    expect(closest('d-i-s-a-l-l-o-w-e-d-T-o-o-l-s', ['tools', 'disallowedTools'])).toBe('disallowedTools');
  });

  it('computes no distance to a candidate whose length alone puts it out of reach', () => {
    expect(closest('hiden', ['hidden', 'permissionRules', 'disallowedTools'])).toBe('hidden');
    // "hiden" (5) and "hidden" (6) only: the 15-letter keys are 10 letters away.
    expect(Math.max(...lengths)).toBe(6);
  });
});

describe('a workspace definition full of long unknown keys', () => {
  it('loads without an edit distance to any of them; a short slip ("hiden") is still compared', () => {
    const keys = Array.from({ length: 100 }, (_, i) => `k${i}${'x'.repeat(2_000)}: 1`).join('\n');
    const file = '/w/.rxharness/agents/long.md';
    const definition = parseAgentMarkdown(`---\nname: long\ndescription: d\nhiden: true\n${keys}\n---\nbody\n`, { source: 'workspace', file });
    expect(Object.keys(definition.extra)).toHaveLength(101);
    expect(Math.max(...lengths)).toBeLessThan(40);
    expect(lengths.length).toBeGreaterThan(0);
  });
});
