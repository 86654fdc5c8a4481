import { defineAgent, HarnessEngine, ScriptedModel } from 'rxharness';

const model = new ScriptedModel((request) => ({
  text: `I am the translator and I can use: ${(request.tools ?? []).map((t) => t.name).join(', ') || 'no tools'}.`,
}));
const engine = new HarnessEngine({ model });

// add() replaces a definition of the same name; addIfAbsent() never does.
engine.agents.add(
  defineAgent({
    name: 'translator',
    description: 'Translates text into French.',
    systemPrompt: 'You translate the text you are given into French and return only the translation.',
    tools: ['read'],
  }),
);
console.log('added twice?', engine.agents.addIfAbsent(defineAgent({ name: 'translator', description: 'x', systemPrompt: 'y' })));

// Run a definition directly, as a child of the main agent (same narrowing and permissions).
const result = await engine.agent('translator').call('Hello, world');
console.log(result.text);
