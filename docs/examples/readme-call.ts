import { HarnessEngine, ScriptedModel } from 'rxharness';

const engine = new HarnessEngine({ model: new ScriptedModel([{ text: 'Hello from a scripted model.' }]) });
const { text, metrics } = await engine.call('Say hello');
console.log(text, `(${metrics.totalTokens} tokens)`);
