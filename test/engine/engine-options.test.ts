import { describe, expect, it } from 'vitest';
import { HarnessEngine } from '../../src/engine/harness-engine.js';
import type { HarnessEngineOptions } from '../../src/engine/engine-options.js';
import { ScriptedModel } from '../../src/model/scripted-model.js';
import type { Tool } from '../../src/tools/tool.js';

const model = new ScriptedModel([{ text: 'ok' }]);
const tool = (name: string): Tool => ({ name, description: 'a custom tool', parameters: { type: 'object' }, execute: () => 'ok' });

/** Builds an engine from options a JavaScript caller might pass, right or wrong. */
const build = (options: unknown) => () => new HarnessEngine(options as HarnessEngineOptions);

describe('HarnessEngine option checks', () => {
  const bad: { name: string; options: unknown; error: RegExp; kind: typeof TypeError | typeof RangeError }[] = [
    { name: 'no options', options: undefined, error: /options must be an object with at least `model`/, kind: TypeError },
    { name: 'no model', options: {}, error: /`model` must be a ChatModel, e\.g\. new OpenAIChatModel/, kind: TypeError },
    { name: 'a model that is not one', options: { model: 'gpt-4o-mini' }, error: /`model` must be a ChatModel/, kind: TypeError },
    {
      name: 'an unknown option (a typo)',
      options: { model, multitaskMaxTask: 3 },
      error: /unknown option "multitaskMaxTask"; known options: .*multitaskMaxTasks/,
      kind: TypeError,
    },
    { name: 'a negative pool', options: { model, multitaskMaxTasks: -1 }, error: /`multitaskMaxTasks` must be an integer >= 0, got -1/, kind: RangeError },
    { name: 'a fractional depth', options: { model, maxDepth: 1.5 }, error: /`maxDepth` must be an integer from 0 to 64 \(.*\), got 1\.5/, kind: RangeError },
    { name: 'zero steps', options: { model, maxSteps: 0 }, error: /`maxSteps` must be an integer >= 1, got 0/, kind: RangeError },
    { name: 'a string limit', options: { model, maxResultChars: '100' }, error: /`maxResultChars` must be an integer >= 1, got "100"/, kind: RangeError },
    { name: 'a numeric workspace', options: { model, workspace: 42 }, error: /`workspace` must be a string, got number/, kind: TypeError },
    { name: 'a string flag', options: { model, subagentEnabled: 'yes' }, error: /`subagentEnabled` must be a boolean, got string/, kind: TypeError },
    { name: 'a non-function approve', options: { model, approve: true }, error: /`approve` must be a function/, kind: TypeError },
    { name: 'agentDirs as a string', options: { model, agentDirs: 'agents' }, error: /`agentDirs` must be an array/, kind: TypeError },
    { name: 'disabledTools as a string', options: { model, disabledTools: 'bash' }, error: /`disabledTools` must be an array/, kind: TypeError },
    { name: 'a model map entry that is not a model', options: { model, models: { fast: {} } }, error: /`models\.fast` must be a ChatModel/, kind: TypeError },
    { name: 'two tools of one name', options: { model, tools: [tool('clock'), tool('clock')] }, error: /two tools are named "clock"/, kind: TypeError },
    { name: 'a tool named like a delegation tool', options: { model, tools: [tool('task')] }, error: /"task" is a delegation tool name/, kind: TypeError },
  ];

  it.each(bad)('rejects $name with a message naming it', ({ options, error, kind }) => {
    expect(build(options)).toThrow(error);
    expect(build(options)).toThrow(kind);
  });

  it('rejects an invalid permission rule, naming the option and the problem', () => {
    expect(build({ model, permissionRules: [{ tool: 'bash', action: 'maybe' }] })).toThrow(/permissionRules.*"action" must be one of allow, deny, ask/);
  });

  it('accepts the boundary values', () => {
    expect(build({ model, multitaskMaxTasks: 0, maxDepth: 0, maxSteps: 1, maxResultChars: 1, subagentEnabled: false, agentDirs: [], models: {} })).not.toThrow();
  });
});
