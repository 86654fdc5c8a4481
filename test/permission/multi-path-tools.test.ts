import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ApprovalRequest } from '../../src/permission/approval.js';
import type { Tool } from '../../src/tools/tool.js';
import { own } from '../support/collect-events.js';
import { runHostileCalls, tempWorkspace, type HostileCall } from './tool-calls-over-http.js';

// A custom tool that touches two paths (`paths: [from, to]`) used to be judged by the rules
// on its first path only: with `{ tool: '*', action: 'deny', pattern: 'secrets/**' }` a
// hostile model moved a file INTO `secrets/` (or over a file there) unasked, since only
// `from` was matched. Every path a call touches is now judged, as a tool's `subjects` are.

let cleanup: (() => Promise<void>) | undefined;
afterEach(async () => {
  await cleanup?.();
  cleanup = undefined;
});

/** A `move` tool that records what it was asked to do instead of doing it. */
function moveTool(ran: string[]): Tool {
  return {
    name: 'move',
    description: 'Moves a file inside the workspace.',
    parameters: { type: 'object', properties: { from: { type: 'string' }, to: { type: 'string' } }, required: ['from', 'to'] },
    paths: (args) => [String(args.from), String(args.to)],
    execute: (args) => {
      ran.push(`${String(args.from)} -> ${String(args.to)}`);
      return 'moved';
    },
  };
}

const move = (from: string, to: string): HostileCall => ({ name: 'move', arguments: { from, to } });

async function workspace(): Promise<string> {
  const ws = await tempWorkspace('rxharness-multi-path-');
  cleanup = ws.cleanup;
  await mkdir(join(ws.dir, 'notes'));
  await mkdir(join(ws.dir, 'secrets'));
  await writeFile(join(ws.dir, 'notes', 'a.txt'), 'a');
  return ws.dir;
}

describe('a tool with several paths, under rules for every tool', () => {
  it('is denied when a deny rule holds for any of its paths, however the path is spelt', async () => {
    const dir = await workspace();
    const ran: string[] = [];
    const calls = [
      move('notes/a.txt', 'secrets/key'),
      move('notes/a.txt', './notes/../secrets/key'),
      move('notes/a.txt', join(dir, 'secrets', 'key')),
      move('secrets/key', 'notes/b.txt'), // the first path: denied before the change too
      move('notes/a.txt', 'notes/b.txt'), // neither path is denied: it runs
    ];
    const events = await runHostileCalls(dir, calls, {
      tools: [moveTool(ran)],
      permissionRules: [{ tool: '*', action: 'deny', pattern: 'secrets/**' }],
    });
    const ends = own(events, 'ToolCallEnd');
    // The refusal names the path of the call that is denied, and the rule (pathRefusalText).
    const denied = 'Permission denied: move on "secrets/key" is denied by rule {tool: "*", action: deny, pattern: "secrets/**"}. Use another path';
    expect(ends.map((e) => e.error?.startsWith(denied) ?? false)).toEqual([
      true,
      true,
      true,
      true,
      false,
    ]);
    expect(ran).toEqual(['notes/a.txt -> notes/b.txt']);
  });

  it('asks about the path a rule asks about, and an "always" grants that path, not the other one', async () => {
    const dir = await workspace();
    const ran: string[] = [];
    const asked: ApprovalRequest[] = [];
    const calls = [
      move('notes/a.txt', 'secrets/key'), // asks about secrets/key: approved always
      move('notes/c.txt', 'secrets/key'), // the granted path again: runs unasked
      move('notes/a.txt', 'secrets/other'), // another path under the ask: asks, rejected
    ];
    const events = await runHostileCalls(dir, calls, {
      tools: [moveTool(ran)],
      permissionRules: [{ tool: '*', action: 'ask', pattern: 'secrets/**' }],
      approve: (request) => {
        asked.push(request);
        return asked.length === 1 ? { decision: 'always' } : { decision: 'reject', comment: 'no' };
      },
    });
    expect(asked.map((r) => r.args)).toEqual([
      { from: 'notes/a.txt', to: 'secrets/key' },
      { from: 'notes/a.txt', to: 'secrets/other' },
    ]);
    expect(own(events, 'HITLPending').map((e) => e.reason)).toEqual([
      'approval required by rule {tool: "*", action: ask, pattern: "secrets/**"}',
      'approval required by rule {tool: "*", action: ask, pattern: "secrets/**"}',
    ]);
    expect(ran).toEqual(['notes/a.txt -> secrets/key', 'notes/c.txt -> secrets/key']);
  });
});
