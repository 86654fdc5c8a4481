import { defineAgent, defineTool, HarnessEngine, ScriptedModel } from 'rxharness';

// The model calls `ticket` once, then answers with what it returned and the temperature it was sent.
const model = new ScriptedModel((request) =>
  request.messages.some((m) => m.role === 'tool')
    ? { text: `Reviewed against "${request.messages.at(-1)?.content}" at temperature ${request.settings?.temperature}.` }
    : { toolCalls: [{ name: 'ticket', args: { id: 42 } }] },
);
const engine = new HarnessEngine({ model });

const ticket = defineTool({
  name: 'ticket',
  description: 'Reads a ticket by number.',
  input: { type: 'object', properties: { id: { type: 'number' } }, required: ['id'] },
  execute: ({ id }) => `ticket ${id}: the parser drops the last line`,
});

// Customise the definition's agent before running it: one more tool, settings, a step limit.
const reviewer = engine
  .createSubagent(defineAgent({ name: 'reviewer', description: 'Reviews code.', systemPrompt: 'You review code.', tools: ['read'] }))
  .withTool(ticket)
  .withSettings({ temperature: 0 })
  .withMaxSteps(4)
  .build();
const result = await reviewer.call('Review src/parse.ts against ticket 42');
console.log(result.text);
console.log('registered for task?', engine.agents.get('reviewer') !== undefined);
