/**
 * A store may say it keeps grants (`keepsGrants`: the Redis store): what it lists is then all
 * a conversation has, from its first grant on. Before, a store counted as keeping grants only
 * once it had listed one: an engine whose first "always" failed to save (Redis out of memory)
 * never saw its store keep any, and held the grant past a delete through another engine.
 */
import { describe, expect, it } from 'vitest';
import { ApprovalGrants } from '../../src/agent/approval-grants.js';
import type { GrantStore } from '../../src/agent/grant-entries.js';
import { MemorySessionStore } from '../../src/session/memory-session-store.js';

/** A shared store whose saves fail while `full` is set, as Redis at its `maxmemory`. */
function fillingStore() {
  const shared = new MemorySessionStore();
  const state = { full: false };
  const store: GrantStore = {
    keepsGrants: true,
    loadGrants: async (id) => shared.loadGrants(id),
    saveGrant: async (id, grant) => {
      if (state.full) throw new Error('OOM command not allowed when used memory > maxmemory');
      shared.saveGrant(id, grant);
    },
  };
  return { store, state };
}

/** Lets the grant's save (and any read back of it) settle. */
const settled = () => new Promise((r) => setTimeout(r, 0));

describe('"always" approvals: a store that says it keeps grants', () => {
  it('a first grant whose save failed is forgotten at the next open, as the store does not list it', async () => {
    const { store, state } = fillingStore();
    const grants = new ApprovalGrants();
    await grants.open('conv', store);
    state.full = true;
    grants.grant('conv', 'bash', 'touch granted.txt');
    expect(grants.has('conv', 'bash', 'touch granted.txt')).toBe(true); // held for this run
    await settled();
    state.full = false;
    await grants.open('conv', store); // the next run (the conversation deleted elsewhere meanwhile)
    expect(grants.has('conv', 'bash', 'touch granted.txt')).toBe(false);
  });
});
