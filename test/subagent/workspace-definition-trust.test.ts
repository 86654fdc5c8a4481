import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import type { HarnessEngineOptions } from '../../src/engine/engine-options.js';
import type { JsonObject } from '../../src/events/json.js';
import type { ScriptedReply } from '../../src/model/scripted-model.js';
import { parseAgentMarkdown } from '../../src/subagent/parse-agent-markdown.js';
import type { AgentSource } from '../../src/subagent/agent-definition.js';
import { testAgentPrompt } from '../support/agent-turns.js';
import { collect } from '../support/collect-events.js';
import { taskArgs } from '../support/delegation-script.js';
import { scriptedSteps } from '../support/scripted-routes.js';
import { deepEvents, makeSandbox, recordApprovals, sandboxEngine, type Sandbox } from '../support/approval-kit.js';
import { testCliIO } from '../cli/test-cli-io.js';

// A cloned repository is untrusted input: the definitions in its .rxharness/agents/ may
// narrow their agent but never loosen it, unless the engine trusts workspace definitions.

let sandbox: Sandbox;
afterEach(() => sandbox.cleanup());

const call = (name: string, args: JsonObject): ScriptedReply => ({ toolCalls: [{ name, args }] });

/** One definition text: it tries to read outside the workspace and to run bash without asking. */
function looseDefinition(outside: string): string {
  return [
    '---',
    'name: loose',
    'description: Test agent loose.',
    'tools: [read, bash]',
    'permissionRules:',
    `  - { tool: read, action: allow, pattern: '${outside}/**' }`,
    '  - { tool: bash, action: allow }',
    `  - { tool: read, action: deny, pattern: 'private/**' }`,
    '---',
    testAgentPrompt('loose'),
    '',
  ].join('\n');
}

type Place = 'workspace' | 'agentDirs' | 'home' | 'programmatic';

/** Puts the definition at `place`, runs `task loose`, and reports what the agent managed to do. */
async function runLoose(place: Place, options: Partial<HarnessEngineOptions> = {}) {
  sandbox = await makeSandbox();
  await sandbox.file('secret.txt', 'outside secret\n', sandbox.outside);
  await sandbox.file('private/notes.txt', 'private\n');
  const text = looseDefinition(sandbox.outside);
  const extra: Partial<HarnessEngineOptions> = {};
  if (place === 'workspace') await sandbox.file('.rxharness/agents/loose.md', text);
  if (place === 'home') await sandbox.file('.rxharness/agents/loose.md', text, sandbox.home);
  if (place === 'agentDirs') {
    await sandbox.file('shared-agents/loose.md', text, sandbox.root);
    Object.assign(extra, { agentDirs: [join(sandbox.root, 'shared-agents')] });
  }
  const human = recordApprovals(() => ({ decision: 'reject', comment: 'not now' }));
  const { engine } = await sandboxEngine(
    sandbox,
    {
      main: scriptedSteps(call('task', taskArgs('loose', 'go'))),
      loose: scriptedSteps(
        call('read', { path: join(sandbox.outside, 'secret.txt') }),
        call('bash', { command: 'printf ran > ran.txt' }),
        call('read', { path: 'private/notes.txt' }),
      ),
    },
    place === 'programmatic' ? [parseAgentMarkdown(text, { source: 'runtime' as AgentSource })] : [],
    { approve: human.approve, ...extra, ...options },
  );
  const events = await collect(engine.stream('go'));
  const ends = deepEvents(events, 'ToolCallEnd').filter((e) => e.agentName === 'loose');
  return {
    engine,
    source: (await engine.agents.get('loose'))?.source,
    readOutside: ends[0]!,
    ranBash: existsSync(join(sandbox.dir, 'ran.txt')),
    askedFor: human.requests.map((r) => r.toolName),
    readPrivate: ends[2]!,
  };
}

describe('definitions from the workspace may only narrow their agent', () => {
  it('a workspace definition cannot read outside the workspace nor run bash without asking; its deny still holds', async () => {
    const result = await runLoose('workspace');
    expect(result.source).toBe('workspace');
    expect(result.readOutside.error).toMatch(/is outside the workspace/);
    expect(result.askedFor).toEqual(['bash']);
    expect(result.ranBash).toBe(false);
    expect(result.readPrivate.error).toBe(
      'Permission denied: read on "private/notes.txt" is denied by rule {tool: "read", action: deny, pattern: "private/**"}. ' +
        "Use another path: this is the rule (to allow it, the user removes the deny rule from permissionRules, the engine's or the agent definition's, " +
        "or adds { tool: 'read', action: 'allow', pattern: \"private/notes.txt\" } with a higher priority than it; a delegating agent's deny holds for its subagents whatever they allow).",
    );
  });

  it('says so in the diagnostics, naming each ignored rule and the option that trusts it', async () => {
    const { engine } = await runLoose('workspace');
    const file = join(sandbox.dir, '.rxharness', 'agents', 'loose.md');
    const reasons = (await engine.agents.diagnostics()).filter((d) => d.file === file).map((d) => d.reason);
    expect(reasons).toHaveLength(2);
    expect(reasons[0]).toMatch(/^permission rule \{tool: "read", action: allow, pattern: .*\} is ignored: a definition in the workspace may only narrow its agent/);
    expect(reasons[1]).toMatch(/^permission rule \{tool: "bash", action: allow\} is ignored/);
    expect(reasons[1]).toContain('trustWorkspaceAgents');
  });

  it('`rxharness agents` shows the ignored rules', async () => {
    await runLoose('workspace');
    const io = testCliIO({ env: { HOME: sandbox.home }, cwd: sandbox.dir });
    expect(await main(['agents'], io)).toBe(0);
    expect(io.stdoutText()).toMatch(/^loose +\[workspace\] +Test agent loose\.$/m);
    expect(io.stdoutText()).toContain(`${join(sandbox.dir, '.rxharness', 'agents', 'loose.md')}: permission rule {tool: "bash", action: allow} is ignored`);
  });

  it.each(['agentDirs', 'home', 'programmatic'] as const)('the same definition from %s keeps its power', async (place) => {
    const result = await runLoose(place);
    expect(result.readOutside.error).toBeUndefined();
    expect(result.readOutside.text).toContain('outside secret');
    expect(result.askedFor).toEqual([]);
    expect(result.ranBash).toBe(true);
    expect(result.readPrivate.error).toMatch(/^Permission denied/);
    expect((await result.engine.agents.diagnostics()).filter((d) => d.reason.includes('is ignored'))).toEqual([]);
  });

  it('trustWorkspaceAgents: true gives a workspace definition its power back', async () => {
    const result = await runLoose('workspace', { trustWorkspaceAgents: true });
    expect(result.readOutside.text).toContain('outside secret');
    expect(result.askedFor).toEqual([]);
    expect(result.ranBash).toBe(true);
    expect((await result.engine.agents.diagnostics()).filter((d) => d.reason.includes('is ignored'))).toEqual([]);
  });

  it('refuses a trustWorkspaceAgents that is not a boolean', async () => {
    await expect(runLoose('workspace', { trustWorkspaceAgents: 'yes' as unknown as boolean })).rejects.toThrow(
      'HarnessEngine: `trustWorkspaceAgents` must be a boolean, got string',
    );
  });
});
