import { lastValueFrom, tap } from 'rxjs';
import { defineAgent, HarnessEngine, isTaskWrap, ScriptedModel, terminalRunEnd } from 'rxharness';

// One scripted model plays every agent; it tells them apart by their system prompt.
const model = new ScriptedModel((request) => {
  const last = request.messages.at(-1)!;
  if (request.sender?.agentName !== 'main') return { text: 'No bugs found in src/math.ts.' };
  if (last.role === 'tool') return { text: 'The reviewer found no bugs.' };
  const args = { agent_name: 'reviewer', prompt: 'Review src/math.ts for bugs. Report each with its line.', description: 'review math' };
  return { toolCalls: [{ name: 'task', args }] };
});
const engine = new HarnessEngine({ model });
engine.agents.add(
  defineAgent({
    name: 'reviewer',
    description: 'Reviews code for bugs. Read-only.',
    systemPrompt: 'You review code for bugs and report each one with its file and line.',
    tools: ['read', 'grep', 'glob'],
  }),
);

const end = await lastValueFrom(
  engine.stream('Check src/math.ts').pipe(
    tap((event) => {
      // A child's events arrive wrapped; its RunEnd is inside a TaskWrap, never at the top level.
      if (isTaskWrap(event)) console.log(`  ${event.taskAgentName} (${event.taskId.slice(0, 13)}…): ${event.event.type}`);
      else console.log(event.type);
      if (event.type === 'ToolCallEnd') console.log(`  what the main model reads:\n  ${event.text}`);
    }),
    terminalRunEnd(), // the parent's own RunEnd: the last value of the stream
  ),
);
console.log(`answer: ${end.text} (tasks: ${end.metrics.tasks}, tokens: ${end.metrics.totalTokens})`);
