import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { JsonObject } from '../../src/events/json.js';
import type { ScriptedReply } from '../../src/model/scripted-model.js';
import type { PermissionRule } from '../../src/permission/permission-rule.js';
import { testAgent, testAgentPrompt } from '../support/agent-turns.js';
import { collect, own } from '../support/collect-events.js';
import { taskArgs } from '../support/delegation-script.js';
import { scriptedSteps } from '../support/scripted-routes.js';
import { callTrail, deepEvents, makeSandbox, recordApprovals, sandboxEngine, type Sandbox } from '../support/approval-kit.js';

let sandbox: Sandbox;
afterEach(() => sandbox.cleanup());

const call = (name: string, args: JsonObject): ScriptedReply => ({ toolCalls: [{ name, args }] });
const task = (agent: string): ScriptedReply => call('task', taskArgs(agent, `${agent}, do it`));

/** Writes `<workspace>/.rxharness/agents/<name>.md` with extra front-matter lines; its body is a test agent's prompt. */
function agentFile(name: string, frontMatter: string): Promise<string> {
  const text = `---\nname: ${name}\ndescription: Test agent ${name}.\n${frontMatter}---\n${testAgentPrompt(name)}\n`;
  return sandbox.file(`.rxharness/agents/${name}.md`, text);
}

describe('layers through delegation: engine rules, then definition rules; a child keeps its parent\'s denies', () => {
  it('an engine deny on bash holds in a child whose definition file allows bash at priority 100', async () => {
    sandbox = await makeSandbox();
    await agentFile('shell', 'tools: [bash]\npermissionRules:\n  - { tool: bash, action: allow, priority: 100 }\n');
    const human = recordApprovals(() => ({ decision: 'approve' }));
    const { engine } = await sandboxEngine(
      sandbox,
      { main: scriptedSteps(task('shell')), shell: scriptedSteps(call('bash', { command: 'printf ran > ran.txt' })) },
      [],
      // Trusted, so that its allow counts in its own layers (an untrusted one is dropped: see workspace-definition-trust).
      { permissionRules: [{ tool: 'bash', action: 'deny' }], approve: human.approve, trustWorkspaceAgents: true },
    );

    const events = await collect(engine.stream('go'));

    expect(existsSync(join(sandbox.dir, 'ran.txt'))).toBe(false);
    expect(human.requests).toEqual([]);
    const end = deepEvents(events, 'ToolCallEnd').find((e) => e.toolName === 'bash')!;
    // The child's own layers allow it (its priority 100 beats the engine's deny); the parent's deny is kept.
    expect(end).toMatchObject({
      agentName: 'shell',
      error: 'Permission denied: denied by the parent agent: denied by rule {tool: "bash", action: deny}',
    });
    expect((await engine.agents.get('shell'))?.permissionRules).toEqual([{ tool: 'bash', action: 'allow', priority: 100 }]);
  });

  it('a parent definition\'s deny is kept by a grandchild that allows it, and narrows only that branch', async () => {
    sandbox = await makeSandbox();
    await sandbox.file('src/a.ts', 'export const a = 1;\n');
    const readA = scriptedSteps(call('read', { path: 'src/a.ts' }));
    const { engine } = await sandboxEngine(
      sandbox,
      {
        main: scriptedSteps(call('read', { path: 'src/a.ts' }), task('sealed'), task('open')),
        sealed: scriptedSteps(call('read', { path: 'src/a.ts' }), task('leaf')),
        leaf: readA,
        open: readA,
      },
      [
        testAgent('sealed', { permissionRules: [{ tool: 'read', action: 'deny', pattern: 'src/**' }] }),
        testAgent('leaf', { permissionRules: [{ tool: 'read', action: 'allow', pattern: 'src/**', priority: 100 }] }),
        testAgent('open'),
      ],
      { maxDepth: 2 },
    );

    const events = await collect(engine.stream('go'));

    const reads = deepEvents(events, 'ToolCallEnd').filter((e) => e.toolName === 'read');
    const advice =
      "Use another path: this is the rule (to allow it, the user removes the deny rule from permissionRules, the engine's or the agent definition's, " +
      "or adds { tool: 'read', action: 'allow', pattern: \"src/a.ts\" } with a higher priority than it; a delegating agent's deny holds for its subagents whatever they allow).";
    expect(reads.map((e) => [e.agentName, e.error])).toEqual([
      ['main', undefined],
      ['sealed', `Permission denied: read on "src/a.ts" is denied by rule {tool: "read", action: deny, pattern: "src/**"}. ${advice}`],
      ['leaf', `Permission denied: read on "src/a.ts" is denied by the parent agent: denied by rule {tool: "read", action: deny, pattern: "src/**"}. ${advice}`],
      ['open', undefined],
    ]);
    expect(reads[3]!.text).toContain('export const a = 1;');
  });

  it('a `*` rule covers every tool on its pattern', async () => {
    sandbox = await makeSandbox();
    await sandbox.file('secrets/key.txt', 'k\n');
    await sandbox.file('docs/readme.txt', 'hello\n');
    const { engine } = await sandboxEngine(
      sandbox,
      {
        main: scriptedSteps(
          call('read', { path: 'secrets/key.txt' }),
          call('write', { path: 'secrets/new.txt', content: 'x' }),
          call('list', { path: 'secrets' }),
          call('read', { path: 'docs/readme.txt' }),
        ),
      },
      [],
      { permissionRules: [{ tool: '*', action: 'deny', pattern: 'secrets/**' }] }, // `secrets/**` matches the folder itself too
    );
    const events = await collect(engine.stream('go'));
    expect(own(events, 'ToolCallEnd').map((e) => [e.toolName, e.error?.slice(0, 18)])).toEqual([
      ['read', 'Permission denied:'],
      ['write', 'Permission denied:'],
      ['list', 'Permission denied:'],
      ['read', undefined],
    ]);
    expect(existsSync(join(sandbox.dir, 'secrets/new.txt'))).toBe(false);
  });
});

describe('defaults and how a user overrides them', () => {
  it('reading .env asks by default (at any depth); an allow rule for it overrides that', async () => {
    sandbox = await makeSandbox();
    await sandbox.file('.env', 'TOKEN=abc\n');
    await sandbox.file('config/.env.local', 'TOKEN=local\n');
    const routes = { main: scriptedSteps(call('read', { path: '.env' }), call('read', { path: 'config/.env.local' })) };
    const human = recordApprovals(() => ({ decision: 'approve' }));

    const asked = await collect((await sandboxEngine(sandbox, routes, [], { approve: human.approve })).engine.stream('go'));
    expect(own(asked, 'HITLPending').map((e) => e.reason)).toEqual([
      'read asks for approval by default for ".env"',
      'read asks for approval by default for "config/.env.local"',
    ]);
    expect(own(asked, 'ToolCallEnd')[0]!.text).toContain('TOKEN=abc');

    const permissionRules = [{ tool: 'read', action: 'allow' as const, pattern: '.env' }];
    const overridden = await collect((await sandboxEngine(sandbox, routes, [], { approve: human.approve, permissionRules })).engine.stream('go'));
    expect(own(overridden, 'HITLPending').map((e) => e.args)).toEqual([{ path: 'config/.env.local' }]);
    expect(callTrail(overridden, 'read').slice(0, 2)).toEqual(['main:ToolCallStart', 'main:ToolCallEnd']);
    expect(own(overridden, 'ToolCallEnd')[0]!.text).toContain('TOKEN=abc');
  });

  it('bash asks by default; an allow pattern lets matching commands run without asking', async () => {
    sandbox = await makeSandbox();
    const human = recordApprovals(() => ({ decision: 'reject' }));
    const { engine } = await sandboxEngine(
      sandbox,
      { main: scriptedSteps(call('bash', { command: 'echo allowed' }), call('bash', { command: 'printf asked' })) },
      [],
      { approve: human.approve, permissionRules: [{ tool: 'bash', action: 'allow', pattern: 'echo *' }] },
    );
    const events = await collect(engine.stream('go'));
    expect(human.requests.map((r) => r.args)).toEqual([{ command: 'printf asked' }]);
    expect(own(events, 'ToolCallEnd').map((e) => [e.text.split('\n')[0], e.error === undefined])).toEqual([
      ['allowed', true],
      ['ERROR: The bash call was rejected. Do not retry it unchanged.', false],
    ]);
  });

  it('at equal priority ask beats allow; a higher priority allow wins', async () => {
    sandbox = await makeSandbox();
    const human = recordApprovals(() => ({ decision: 'approve' }));
    const routes = { main: scriptedSteps(call('bash', { command: 'echo tie' })) };
    const tie = [
      { tool: 'bash', action: 'allow' as const },
      { tool: 'bash', action: 'ask' as const, pattern: 'echo *' },
    ];
    const tied = await collect((await sandboxEngine(sandbox, routes, [], { approve: human.approve, permissionRules: tie })).engine.stream('go'));
    expect(own(tied, 'HITLPending')[0]!.reason).toBe('approval required by rule {tool: "bash", action: ask, pattern: "echo *"}');

    const ranked = [{ ...tie[0]!, priority: 1 }, tie[1]!];
    const won = await collect((await sandboxEngine(sandbox, routes, [], { approve: human.approve, permissionRules: ranked })).engine.stream('go'));
    expect(own(won, 'HITLPending')).toEqual([]);
    expect(own(won, 'ToolCallEnd')[0]!.text).toMatch(/^tie\b/);
  });
});

describe('rules on delegation and bad rules', () => {
  it('a task rule matches agent_name: denying one agent leaves the others', async () => {
    sandbox = await makeSandbox();
    const { engine } = await sandboxEngine(
      sandbox,
      { main: scriptedSteps(task('general'), task('worker')), worker: scriptedSteps() },
      [testAgent('worker')],
      { permissionRules: [{ tool: 'task', action: 'deny', pattern: 'general' }] },
    );
    const events = await collect(engine.stream('go'));
    const ends = own(events, 'ToolCallEnd');
    expect(ends[0]!.error).toBe('Permission denied: denied by rule {tool: "task", action: deny, pattern: "general"}');
    expect(ends[1]!.error).toBeUndefined();
    expect(deepEvents(events, 'RunStart').map((e) => e.agentName)).toEqual(['main', 'worker']);
  });

  it('a misspelt rule key is refused: the engine throws, a definition file becomes a diagnostic', async () => {
    sandbox = await makeSandbox();
    const file = await agentFile('loose', 'permissionRules:\n  - { tool: bash, action: deny, patern: "rm *" }\n');
    const { engine } = await sandboxEngine(sandbox, {});
    expect(await engine.agents.diagnostics()).toEqual([
      { file, reason: expect.stringContaining('Invalid permission rule in "permissionRules" at index 0: unknown key "patern"') },
    ]);
    expect(await engine.agents.get('loose')).toBeUndefined();

    const bad = [{ tool: 'bash', action: 'deny', patern: 'rm *' }] as unknown as PermissionRule[];
    await expect(sandboxEngine(sandbox, {}, [], { permissionRules: bad })).rejects.toThrow(
      'Invalid permission rule in permissionRules at index 0: unknown key "patern" (allowed: tool, action, pattern, priority)',
    );
  });
});

describe('definition tool names', () => {
  it('an unknown tool name in a definition file becomes a diagnostic, and the agent still loads', async () => {
    sandbox = await makeSandbox();
    const file = await agentFile('typo', 'tools: [read, grepp]\n');
    const { engine } = await sandboxEngine(sandbox, {});

    const diagnostics = await engine.agents.diagnostics();
    expect(diagnostics).toEqual([{ file, reason: expect.stringMatching(/^unknown tool "grepp"; known tools: .*\bgrep\b/) }]);
    expect((await engine.agents.list()).map((a) => a.name)).toContain('typo');
  });

  it('a definition with tools `*` gets every tool its parent has; narrowing never adds one', async () => {
    sandbox = await makeSandbox();
    await agentFile('everything', 'tools: "*"\n');
    await agentFile('reader', 'tools: [read, bash, nonsense]\n');
    const { engine, model } = await sandboxEngine(
      sandbox,
      { main: scriptedSteps(task('everything'), task('reader')), everything: scriptedSteps(), reader: scriptedSteps() },
      [],
      { disabledTools: ['bash'] },
    );
    await collect(engine.stream('go'));
    const offered = (agent: string) => model.requests.find((r) => String(r.messages[0]?.content).startsWith(testAgentPrompt(agent)))!.tools!.map((t) => t.name);
    const mainTools = model.requests[0]!.tools!.map((t) => t.name);
    expect(offered('everything')).toEqual(mainTools.filter((t) => !['task', 'multitask', 'generate'].includes(t)));
    expect(offered('reader')).toEqual(['read']);
  });
});
