/**
 * The compiled `tools` entries are cached, but a long-lived `serve` meets new definitions (and
 * their globs) for as long as it runs: the cache stays at its bound, dropping the least
 * recently used, and every answer stays right (a dropped entry is compiled again).
 */
import { describe, expect, it } from 'vitest';
import { isKnownToolName, MATCHER_CACHE_LIMIT, matcherCacheSize, narrowTools } from '../../src/subagent/narrow-tools.js';

describe('the compiled tool-entry cache', () => {
  it('10,000 distinct globs leave it at its bound, and every answer is right, before and after eviction', () => {
    const total = 10_000;
    for (let i = 0; i < total; i++) {
      expect(isKnownToolName(`mcp__s${i}__read`, [`mcp__s${i}__*`])).toBe(true);
      expect(isKnownToolName(`mcp__s${i}__read`, [`mcp__other${i}__*`])).toBe(false);
      expect(matcherCacheSize()).toBeLessThanOrEqual(MATCHER_CACHE_LIMIT);
    }
    expect(matcherCacheSize()).toBe(MATCHER_CACHE_LIMIT);
    // long evicted: compiled again, same answers
    expect(isKnownToolName('mcp__s0__read', ['mcp__s0__*'])).toBe(true);
    expect(isKnownToolName('mcp__s0__read', ['mcp__s1__*'])).toBe(false);
    expect(matcherCacheSize()).toBe(MATCHER_CACHE_LIMIT);
  });

  it('narrowing with an entry used throughout, among thousands of others, stays right and bounded', () => {
    const parent = ['read', 'mcp__fs__read_file', 'mcp__fs__write_file', 'mcp__gh__issue'];
    for (let i = 0; i < 2 * MATCHER_CACHE_LIMIT; i++) {
      expect(narrowTools({ parentTools: parent, tools: ['mcp__fs__read_*', `mcp__x${i}__*`], disallowedTools: [`mcp__y${i}__*`], canDelegate: false })).toEqual(['mcp__fs__read_file']);
    }
    expect(matcherCacheSize()).toBe(MATCHER_CACHE_LIMIT);
  });
});
