import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { collect, own } from '../support/collect-events.js';
import { taskArgs } from '../support/delegation-script.js';
import { scriptedSteps } from '../support/scripted-routes.js';
import { callTrail, deepEvents, lastToolMessages, makeSandbox, sandboxEngine, type Sandbox } from '../support/approval-kit.js';

let sandbox: Sandbox;
afterEach(() => sandbox.cleanup());

describe('built-in tools on a real workspace, through the rules', () => {
  it('the main agent writes and edits a file; a child explore greps and reads it', async () => {
    sandbox = await makeSandbox();
    await sandbox.file('src/app.ts', 'export const greeting = "hello";\n');
    const { engine, model } = await sandboxEngine(sandbox, {
      main: scriptedSteps(
        { toolCalls: [{ name: 'write', args: { path: 'notes/todo.md', content: 'TODO: say hello\n' } }] },
        { toolCalls: [{ name: 'edit', args: { path: 'notes/todo.md', old_string: 'say hello', new_string: 'say goodbye' } }] },
        { toolCalls: [{ name: 'task', args: taskArgs('explore', 'Where is TODO?', 'find todos') }] },
      ),
      // The built-in explore agent: its requests carry its own system prompt.
      '*': scriptedSteps(
        { toolCalls: [{ name: 'glob', args: { pattern: '**/*.ts' } }] },
        { toolCalls: [{ name: 'grep', args: { pattern: 'TODO' } }] },
        { toolCalls: [{ name: 'read', args: { path: 'notes/todo.md' } }] },
      ),
    });

    const events = await collect(engine.stream('Plan the work'));

    expect(await readFile(join(sandbox.dir, 'notes/todo.md'), 'utf8')).toBe('TODO: say goodbye\n');
    const ends = deepEvents(events, 'ToolCallEnd');
    expect(ends.map((e) => [e.agentName, e.toolName, e.error])).toEqual([
      ['main', 'write', undefined],
      ['main', 'edit', undefined],
      ['explore', 'glob', undefined],
      ['explore', 'grep', undefined],
      ['explore', 'read', undefined],
      ['main', 'task', undefined],
    ]);
    const [, , glob, grep, read] = ends;
    expect(grep!.text).toContain('notes/todo.md:1: TODO: say goodbye');
    expect(read!.text).toContain('TODO: say goodbye');
    expect(glob!.text).toContain('src/app.ts');
    // The child's results reached the parent's model inside the task result.
    const taskResult = lastToolMessages(model.requests, 'main').at(-1)!;
    expect(taskResult).toContain('<agent_name>explore</agent_name>');
    expect(taskResult).toContain('TODO: say goodbye');
    expect(own(events, 'RunEnd')[0]).toMatchObject({ abnormal: false });
    // Nothing here asks: reads, searches and writes inside the workspace are allowed by default.
    expect(deepEvents(events, 'HITLPending')).toEqual([]);
  });

  it('a deny rule stops write: no file, and both ToolCallEnd.error and the model say why', async () => {
    sandbox = await makeSandbox();
    const { engine, model } = await sandboxEngine(
      sandbox,
      { main: scriptedSteps({ toolCalls: [{ name: 'write', args: { path: 'out/report.txt', content: 'x' } }] }) },
      [],
      { permissionRules: [{ tool: 'write', action: 'deny', pattern: 'out/**' }] },
    );

    const events = await collect(engine.stream('write the report'));

    expect(existsSync(join(sandbox.dir, 'out/report.txt'))).toBe(false);
    const end = own(events, 'ToolCallEnd')[0]!;
    expect(end.error).toBe(
      'Permission denied: write on "out/report.txt" is denied by rule {tool: "write", action: deny, pattern: "out/**"}. ' +
        "Use another path: this is the rule (to allow it, the user removes the deny rule from permissionRules, the engine's or the agent definition's, " +
        "or adds { tool: 'write', action: 'allow', pattern: \"out/report.txt\" } with a higher priority than it; a delegating agent's deny holds for its subagents whatever they allow).",
    );
    expect(lastToolMessages(model.requests, 'main')).toEqual([`ERROR: ${end.error}`]);
    expect(callTrail(events, 'write')).toEqual(['main:ToolCallStart', 'main:ToolCallEnd']);
    expect(own(events, 'RunEnd')[0]).toMatchObject({ abnormal: false, text: `final: ERROR: ${end.error}` });
  });

  it('the same deny stops a child general agent, and its parent reads the refusal', async () => {
    sandbox = await makeSandbox();
    const { engine, model } = await sandboxEngine(
      sandbox,
      {
        main: scriptedSteps({ toolCalls: [{ name: 'task', args: taskArgs('general', 'write the report') }] }),
        '*': scriptedSteps({ toolCalls: [{ name: 'write', args: { path: 'out/report.txt', content: 'x' } }] }),
      },
      [],
      { permissionRules: [{ tool: 'write', action: 'deny', pattern: 'out/**' }] },
    );

    const events = await collect(engine.stream('delegate the report'));

    expect(existsSync(join(sandbox.dir, 'out/report.txt'))).toBe(false);
    const childEnd = deepEvents(events, 'ToolCallEnd').find((e) => e.toolName === 'write')!;
    expect(childEnd).toMatchObject({ agentName: 'general', error: expect.stringContaining('denied by rule {tool: "write", action: deny') });
    expect(lastToolMessages(model.requests, 'main').at(-1)).toContain('Permission denied');
  });
});
