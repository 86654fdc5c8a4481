import { describe, expect, it } from 'vitest';
import { HarnessEngine } from '../../src/engine/harness-engine.js';
import { ScriptedModel } from '../../src/model/scripted-model.js';
import { testAgent } from '../support/agent-turns.js';
import { taskArgs } from '../support/delegation-script.js';
import { scriptedRoutes, scriptedSteps } from '../support/scripted-routes.js';
import { EMPTY_HOME } from '../support/empty-home.js';

// A definition's `model` names a key of the engine's `models`; names every object has
// (constructor, toString, __proto__) are not models the engine was given.
describe('a definition naming a model the engine does not have', () => {
  it.each(['constructor', 'toString', '__proto__', 'hasOwnProperty', 'missing'])('model: %s fails the task with a message naming the models', async (name) => {
    const model = new ScriptedModel(scriptedRoutes({ main: scriptedSteps({ toolCalls: [{ name: 'task', args: taskArgs('picky', 'go') }] }) }));
    const engine = new HarnessEngine({ model, homeDir: EMPTY_HOME, models: { fast: new ScriptedModel([]) } });
    engine.agents.add(testAgent('picky', { model: name }));
    const result = await engine.call('go');
    expect(result.text).toContain(`ERROR: agent "picky" asks for model "${name}", which the engine does not have (models: fast)`);
  });

  it('still finds a model that is really there', async () => {
    const model = new ScriptedModel(scriptedRoutes({ main: scriptedSteps({ toolCalls: [{ name: 'task', args: taskArgs('picky', 'go') }] }) }));
    const engine = new HarnessEngine({ model, homeDir: EMPTY_HOME, models: { constructor: new ScriptedModel([{ text: 'from the constructor model' }]) } });
    engine.agents.add(testAgent('picky', { model: 'constructor' }));
    expect((await engine.call('go')).text).toContain('from the constructor model');
  });
});
