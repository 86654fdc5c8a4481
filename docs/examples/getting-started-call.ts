import { HarnessEngine, ScriptedModel } from 'rxharness';

// ScriptedModel plays replies in order: first a tool call, then the answer.
const model = new ScriptedModel([
  { toolCalls: [{ name: 'list', args: { path: '.' } }] },
  { text: 'The project has a package.json, so it is a Node.js project.' },
]);
const engine = new HarnessEngine({ model, workspace: process.cwd() });

const result = await engine.call('What kind of project is this?');
console.log(result.text);
console.log(`${result.steps} steps, ${result.metrics.totalTokens} tokens, abnormal: ${result.abnormal}`);
