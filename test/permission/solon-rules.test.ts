import { existsSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { HarnessEngine } from '../../src/engine/harness-engine.js';
import { ScriptedModel } from '../../src/model/scripted-model.js';
import { InvalidPermissionRuleError, parsePermissionRules, PermissionPolicy } from '../../src/permission/index.js';
import { defineAgent } from '../../src/subagent/define-agent.js';
import { collect, own } from '../support/collect-events.js';
import { FakeOpenAIServer } from '../support/fake-openai-server.js';
import { openAIModelFor } from '../support/openai-model.js';
import { tempWorkspace } from './tool-calls-over-http.js';
import { EMPTY_HOME } from '../support/empty-home.js';

// Issue 24 item 6: rules written in the Solon harness's keys (`toolName` / `behavior` /
// `pattern` / `priority`) are accepted in definitions and engine options; before, such a
// definition was skipped ("unknown key toolName") and the engine constructor threw.

describe('Solon-spelt permission rules', () => {
  it('are read as ours: toolName is tool, behavior is action (any case), an empty pattern is a rule for the whole tool', () => {
    const rules = parsePermissionRules(
      [
        { toolName: 'bash', behavior: 'DENY', pattern: 'rm *', priority: 10 },
        { toolName: 'write', behavior: 'ask', pattern: '' },
        { toolName: 'read', behavior: 'Allow', pattern: null },
        { tool: 'grep', action: 'deny' },
      ],
      'engine options',
    );
    expect(rules).toEqual([
      { tool: 'bash', action: 'deny', pattern: 'rm *', priority: 10 },
      { tool: 'write', action: 'ask' },
      { tool: 'read', action: 'allow' },
      { tool: 'grep', action: 'deny' },
    ]);
  });

  it.each([
    [{ toolName: 'bash', behavior: 'maybe' }, 'at index 0: "behavior" must be one of allow, deny, ask, got "maybe"'],
    [{ toolName: '', behavior: 'deny' }, 'at index 0: "toolName" must be a non-empty string'],
    [{ tool: 'bash', toolName: 'bash', behavior: 'deny' }, 'at index 0: "tool" and "toolName" are two spellings of one key; keep one of them'],
    [{ toolName: 'bash', behavior: 'deny', patern: 'rm *' }, 'at index 0: unknown key "patern"'],
    [{ toolName: 'bash', behavior: 'deny', priority: 'high' }, 'at index 0: "priority" must be a finite number, got "high"'],
    // Own keys of a parsed rule that Object has too: named as written, not as Object's members.
    [JSON.parse('{"toolName":"bash","behavior":"deny","constructor":"x"}') as object, 'at index 0: unknown key "constructor"'],
    [JSON.parse('{"toolName":"bash","behavior":"deny","__proto__":{"pattern":"rm *"}}') as object, 'at index 0: unknown key "__proto__"'],
  ])('refuses %j, naming the key as written', (rule, message) => {
    expect(() => parsePermissionRules([rule], 'agents/a.md')).toThrow(InvalidPermissionRuleError);
    expect(() => parsePermissionRules([rule], 'agents/a.md')).toThrow(message);
  });

  it('priority orders them as ours: the highest matching priority decides, whatever the order they are listed in', () => {
    const listed = [
      { toolName: 'bash', behavior: 'allow', pattern: 'git *', priority: 5 },
      { toolName: 'bash', behavior: 'deny' },
    ] as const;
    for (const order of [listed, [...listed].reverse()]) {
      const policy = new PermissionPolicy({ rules: parsePermissionRules(order, 'x') });
      expect(policy.evaluate('bash', 'git status').action).toBe('allow');
      expect(policy.evaluate('bash', 'ls').action).toBe('deny');
    }
  });

  it('an engine takes them in its options, and defineAgent in a definition', () => {
    const engine = new HarnessEngine({ model: new ScriptedModel([]), homeDir: EMPTY_HOME, permissionRules: [{ toolName: 'bash', behavior: 'deny' }] });
    expect(engine).toBeInstanceOf(HarnessEngine);
    const agent = defineAgent({ name: 'careful', description: 'Careful.', systemPrompt: 'Be careful.', permissionRules: [{ toolName: 'write', behavior: 'DENY', pattern: 'src/**' }] });
    expect(agent.permissionRules).toEqual([{ tool: 'write', action: 'deny', pattern: 'src/**' }]);
  });

  describe('in a definition file, through a real run', () => {
    let cleanup: (() => Promise<void>) | undefined;
    afterEach(async () => {
      await cleanup?.();
      cleanup = undefined;
    });

    it('the definition loads, and its Solon deny holds for its agent', async () => {
      const ws = await tempWorkspace('rxh-solon-');
      cleanup = ws.cleanup;
      const home = join(ws.dir, 'home');
      await mkdir(join(home, '.rxharness', 'agents'), { recursive: true });
      await writeFile(
        join(home, '.rxharness', 'agents', 'cleaner.md'),
        [
          '---',
          'name: cleaner',
          'description: Cleans up.',
          'tools: [bash]',
          'permissionRules:',
          '  - toolName: bash',
          '    behavior: DENY',
          '    pattern: "rm *"',
          '    priority: 10',
          '---',
          'You are the cleaner.',
          '',
        ].join('\n'),
      );
      await writeFile(join(ws.dir, 'f'), 'keep me');
      const server = await FakeOpenAIServer.start({
        handler: (request) => {
          const messages = request.body.messages ?? [];
          const child = JSON.stringify(messages[0]).includes('You are the cleaner.');
          const answered = messages.some((m) => m.role === 'tool');
          if (child) return answered ? { text: 'tried' } : { toolCalls: [{ name: 'bash', arguments: { command: 'rm f' } }] };
          return answered ? { text: 'done' } : { toolCalls: [{ name: 'task', arguments: { agent_name: 'cleaner', prompt: 'clean', description: 'clean up' } }] };
        },
      });
      try {
        const engine = new HarnessEngine({ model: openAIModelFor(server), workspace: ws.dir, homeDir: home, permissionRules: [{ tool: 'bash', action: 'allow' }] });
        expect((await engine.agents.list()).map((a) => a.name)).toContain('cleaner');
        expect(engine.agents.diagnostics().filter((d) => d.file?.includes('cleaner'))).toEqual([]);
        const events = await collect(engine.stream('clean up'));
        const childEnd = events.flatMap((e) => (e.type === 'TaskWrap' && e.event.type === 'ToolCallEnd' ? [e.event] : []));
        expect(childEnd).toHaveLength(1);
        expect(childEnd[0]!.error).toContain('denied by rule {tool: "bash", action: deny, pattern: "rm *", priority: 10}');
        expect(own(events, 'RunEnd')).toHaveLength(1);
        expect(existsSync(join(ws.dir, 'f'))).toBe(true);
      } finally {
        await server.close();
      }
    });
  });
});
