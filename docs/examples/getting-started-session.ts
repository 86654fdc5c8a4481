import { HarnessEngine, ScriptedModel } from 'rxharness';

// The responder sees the whole request: the second turn contains the first.
const model = new ScriptedModel((request) => ({
  text: `I can see ${request.messages.filter((m) => m.role === 'user').length} user message(s).`,
}));
const engine = new HarnessEngine({ model });

const first = await engine.call('Remember the number 7.', { sessionId: 'notes' });
const second = await engine.call('What number?', { sessionId: 'notes' });
const fresh = await engine.call('What number?');
console.log(first.text, '|', second.text, '|', fresh.text);
