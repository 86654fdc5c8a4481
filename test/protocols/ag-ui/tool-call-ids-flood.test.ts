/**
 * A client's history may hold thousands of `call_0~n` ids (planted or real), and a model may
 * repeat `call_0` at every step: each new call must still get the first free id, unique in
 * the thread, and only the latest answers a frontend result.
 */
import { describe, expect, it } from 'vitest';
import { ToolCallIds } from '../../../src/protocols/ag-ui/tool-call-ids.js';
import { toolCallIdOf } from '../../../src/protocols/ag-ui/ag-ui-ids.js';

describe('ToolCallIds under 10,000 repeats', () => {
  it('gives each repeat the first free suffix, past the ids the client holds', () => {
    const usual = toolCallIdOf('r1', 'call_0', undefined);
    const planted = [usual, `${usual}~2`, `${usual}~3`, `${usual}~5`];
    const ids = new ToolCallIds(planted);
    const given = Array.from({ length: 10_000 }, () => ids.assign('r1', 'call_0', undefined));
    expect(given.slice(0, 3)).toEqual([`${usual}~4`, `${usual}~6`, `${usual}~7`]);
    expect(new Set([...given, ...planted]).size).toBe(10_004);
    expect(ids.of('r1', 'call_0', undefined)).toBe(given.at(-1));
    expect(ids.callIdOf(given.at(-1)!)).toBe('call_0');
    expect(ids.callIdOf(given[0]!)).toBeUndefined();
  });
});
