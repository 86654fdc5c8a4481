import { existsSync } from 'node:fs';
import { symlink } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { JsonObject } from '../../src/events/json.js';
import type { Tool } from '../../src/tools/tool.js';
import { collect, own } from '../support/collect-events.js';
import { scriptedSteps } from '../support/scripted-routes.js';
import { lastToolMessages, makeSandbox, sandboxEngine, type Sandbox } from '../support/approval-kit.js';

// The gate refused a path outside the workspace with a message of its own that named no
// symbolic link and no way to allow it, while the file tools' run-time refusal did: the gate's
// is the one users see. It now says the tools' refusal, word for word.

let sandbox: Sandbox;
afterEach(() => sandbox.cleanup());

/** A tool with two paths that never refuses anything itself: a refusal of its call is the gate's. */
function copyTool(ran: string[]): Tool {
  return {
    name: 'copy',
    description: 'Copies a file.',
    parameters: { type: 'object', properties: { from: { type: 'string' }, to: { type: 'string' } }, required: ['from', 'to'] },
    paths: (args) => [String(args.from), String(args.to)],
    execute: (args) => {
      ran.push(`${String(args.from)} -> ${String(args.to)}`);
      return 'copied';
    },
  };
}

/** Runs the main agent making one call; returns its ToolCallEnd's error and what the model read. */
async function oneCall(name: string, args: JsonObject, tools: Tool[] = []): Promise<{ error: string | undefined; seen: string }> {
  const { engine, model } = await sandboxEngine(sandbox, { main: scriptedSteps({ toolCalls: [{ name, args }] }) }, [], { tools });
  const events = await collect(engine.stream('go'));
  return { error: own(events, 'ToolCallEnd')[0]!.error, seen: lastToolMessages(model.requests, 'main')[0]! };
}

/** The refusal of a path outside the workspace, as the tools and the gate now both say it. */
function outsideRefusal(tool: string, where: string, through: string): string {
  return (
    `Permission denied: "${where}" is outside the workspace ${sandbox.dir}${through}. ` +
    `Use a path inside the workspace (only an explicit allow rule lets ${tool} reach outside it: ` +
    `the user adds one to permissionRules, { tool: '${tool}', action: 'allow', pattern: <a glob matching "${where}"> }; approving a call never does).`
  );
}

describe("the gate's refusal of a path that leads out of the workspace", () => {
  it('names the symbolic link on the way, and how the user allows it', async () => {
    sandbox = await makeSandbox();
    await symlink(sandbox.outside, join(sandbox.dir, 'shared'));
    const { error, seen } = await oneCall('write', { path: 'shared/new.txt', content: 'x' });
    const where = join(sandbox.outside, 'new.txt');
    expect(error).toBe(outsideRefusal('write', where, `: "shared/new.txt" leads there through the symbolic link "shared" -> "${sandbox.outside}"`));
    expect(seen).toBe(`ERROR: ${error}`);
    expect(existsSync(where)).toBe(false);
  });

  it("names the path of a tool's several that leads out, for a tool that refuses nothing itself", async () => {
    sandbox = await makeSandbox();
    await sandbox.file('notes/a.txt', 'a\n');
    await symlink(sandbox.outside, join(sandbox.dir, 'shared'));
    const ran: string[] = [];
    const { error } = await oneCall('copy', { from: 'notes/a.txt', to: 'shared/a.txt' }, [copyTool(ran)]);
    expect(error).toBe(
      outsideRefusal('copy', join(sandbox.outside, 'a.txt'), `: "shared/a.txt" leads there through the symbolic link "shared" -> "${sandbox.outside}"`),
    );
    expect(ran).toEqual([]);
  });

  it('names no link for a path that leaves the workspace as written', async () => {
    sandbox = await makeSandbox();
    const { error } = await oneCall('read', { path: '../outside/secret.txt' });
    expect(error).toBe(outsideRefusal('read', join(sandbox.outside, 'secret.txt'), ''));
  });
});
