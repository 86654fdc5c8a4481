import { HarnessEngine, MemorySessionStore, ScriptedModel } from 'rxharness';

// A scripted model: the summariser (the `compaction` agent) gets a summary, the rest a long answer.
const model = new ScriptedModel((request) =>
  request.sender?.agentName === 'compaction'
    ? { text: 'The user asked me to remember red, green and blue.' }
    : { text: `Noted: ${String(request.messages.at(-1)?.content)} ${'A colour worth remembering. '.repeat(20)}` },
);
const sessions = new MemorySessionStore();
const engine = new HarnessEngine({ model, sessions });
for (const colour of ['red', 'green', 'blue', 'yellow']) await engine.call(`Remember ${colour}.`, { sessionId: 'colours' });

// Compact on demand: everything before the last turn is summarised.
const event = await engine.compact('colours');
console.log(`${event.reason}: ${event.summarisedMessages} messages summarised, ${event.tokensBefore} -> ${event.tokensAfter} tokens`);
console.log('session now:', sessions.load('colours').length, 'messages; archive:', sessions.loadArchive('colours').length);
console.log((sessions.load('colours')[0]?.content ?? '').split('\n').slice(0, 2).join('\n'));
