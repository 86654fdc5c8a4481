import { describe, expect, it } from 'vitest';
import type { PermissionRule } from '../../src/permission/index.js';
import type { Tool } from '../../src/tools/tool.js';
import { own } from '../support/collect-events.js';
import { runHostileCalls } from './tool-calls-over-http.js';

// A tool's `subjects(args)` lists what rules judge for one call (an MCP tool's path
// arguments). When it listed nothing for a call (no path given, say), the gate found no
// subject that denied or asked and let the call run, so a rule for the whole tool
// (`{ tool: 'deploy', action: 'deny' }`, no pattern) never held. Such a call is now judged
// like a call without a subject: by the tool's own rules.

/** A tool that judges its `paths` argument, each one; the model may leave it empty. */
function deployTool(ran: unknown[]): Tool {
  return {
    name: 'deploy',
    description: 'Deploys the given files.',
    parameters: { type: 'object', properties: { paths: { type: 'array', items: { type: 'string' } } } },
    subjects: (args) => (Array.isArray(args.paths) ? args.paths.filter((p): p is string => typeof p === 'string') : []),
    execute: (args) => {
      ran.push(args);
      return 'deployed';
    },
  };
}

async function run(rules: PermissionRule[], args: Record<string, unknown>, approve?: () => { decision: 'reject' }) {
  const ran: unknown[] = [];
  const events = await runHostileCalls(process.cwd(), [{ name: 'deploy', arguments: args }], {
    tools: [deployTool(ran)],
    permissionRules: rules,
    ...(approve ? { approve } : {}),
  });
  return { ran, end: own(events, 'ToolCallEnd')[0]!, pending: own(events, 'HITLPending') };
}

describe('a call whose subjects list is empty', () => {
  it.each([{}, { paths: [] }])('%j is denied by a deny rule for the whole tool', async (args) => {
    const { ran, end } = await run([{ tool: 'deploy', action: 'deny' }], args);
    expect(end.error).toBe('Permission denied: denied by rule {tool: "deploy", action: deny}');
    expect(ran).toEqual([]);
  });

  it('asks under an ask rule for the whole tool, and does not run when rejected', async () => {
    const { ran, end, pending } = await run([{ tool: 'deploy', action: 'ask' }], { paths: [] }, () => ({ decision: 'reject' }));
    expect(pending.map((p) => p.reason)).toEqual(['approval required by rule {tool: "deploy", action: ask}']);
    expect(end.error).toMatch(/^The deploy call was rejected/);
    expect(ran).toEqual([]);
  });

  it('still runs when the rules allow the tool', async () => {
    const { ran, end } = await run([], { paths: [] });
    expect(end.error).toBeUndefined();
    expect(ran).toEqual([{ paths: [] }]);
  });
});
