import { describe, expect, it } from 'vitest';
import { valueBytes } from '../../src/events/value-bytes.js';

describe('valueBytes', () => {
  it('grows with the text kept: two bytes a character, whatever the nesting', () => {
    const text = 'x'.repeat(1024 * 1024);
    expect(valueBytes(text)).toBe(2 * text.length);
    const message = { role: 'assistant', content: null, tool_calls: [{ id: 'c1', type: 'function', function: { name: 'read', arguments: text } }] };
    expect(valueBytes(message)).toBeGreaterThan(2 * text.length);
    expect(valueBytes(message)).toBeLessThan(2 * text.length + 1024);
  });

  it('ends on a cycle and on nesting deeper than any event, without a stack overflow', () => {
    const cyclic: Record<string, unknown> = { name: 'loop' };
    cyclic['self'] = cyclic;
    expect(Number.isFinite(valueBytes(cyclic))).toBe(true);
    let deep: unknown = 'leaf';
    for (let i = 0; i < 100_000; i++) deep = [deep];
    expect(valueBytes(deep)).toBeGreaterThan(0);
  });
});
