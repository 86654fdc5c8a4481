import { defineAgent, HarnessEngine, ScriptedModel } from 'rxharness';

// Each agent answers with the names of the tools it was offered.
const model = new ScriptedModel((request) => ({ text: (request.tools ?? []).map((t) => t.name).join(', ') }));
const agents = [
  defineAgent({ name: 'reader', description: 'Reads.', systemPrompt: 'You read.', tools: ['read', 'grep', 'bash'], disallowedTools: ['bash'] }),
  defineAgent({ name: 'lead', description: 'Leads.', systemPrompt: 'You lead.' }), // no tools field: all the parent has
];

for (const maxDepth of [1, 2]) {
  const engine = new HarnessEngine({ model, maxDepth, disabledTools: ['todo'] });
  for (const agent of agents) engine.agents.add(agent);
  // engine.agent(name) runs a definition as a child of the main agent, at depth 1.
  for (const name of ['reader', 'lead']) {
    const { text } = await engine.agent(name).call('Which tools do you have?');
    console.log(`maxDepth ${maxDepth}, ${name}: ${text}`);
  }
}
