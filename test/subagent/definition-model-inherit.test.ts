import { describe, expect, it } from 'vitest';
import { HarnessEngine } from '../../src/engine/harness-engine.js';
import { ScriptedModel } from '../../src/model/scripted-model.js';
import { parseAgentMarkdown } from '../../src/subagent/parse-agent-markdown.js';
import { testAgent, testAgentPrompt } from '../support/agent-turns.js';
import { taskArgs } from '../support/delegation-script.js';
import { scriptedRoutes, scriptedSteps } from '../support/scripted-routes.js';
import { EMPTY_HOME } from '../support/empty-home.js';

// Claude Code writes `model: inherit` for "the parent's model". Looked up as a model named
// "inherit", it named none and failed every task to the agent.
describe('model: inherit in a definition', () => {
  const delegating = (): ScriptedModel =>
    new ScriptedModel(scriptedRoutes({ main: scriptedSteps({ toolCalls: [{ name: 'task', args: taskArgs('picky', 'go') }] }), picky: () => ({ text: 'from the parent model' }) }));

  it('runs the child of a file definition on its parent model, not an engine model of another name', async () => {
    const engine = new HarnessEngine({ model: delegating(), homeDir: EMPTY_HOME, models: { fast: new ScriptedModel([{ text: 'from fast' }]) } });
    const file = `---\nname: picky\ndescription: Picks.\nmodel: inherit\n---\n${testAgentPrompt('picky')}\n`;
    const definition = parseAgentMarkdown(file, { source: 'runtime' });
    expect(definition.model).toBeUndefined();
    engine.agents.add(definition);
    const result = await engine.call('go');
    expect(result.text).toContain('from the parent model');
    expect(result.text).not.toContain('ERROR');
  });

  it('does the same for a definition in code', async () => {
    const engine = new HarnessEngine({ model: delegating(), homeDir: EMPTY_HOME });
    engine.agents.add(testAgent('picky', { model: 'inherit' }));
    expect((await engine.call('go')).text).toContain('from the parent model');
  });
});
