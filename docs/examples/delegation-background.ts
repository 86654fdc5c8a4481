import { HarnessEngine, ScriptedModel } from 'rxharness';

// The main agent starts a background task; the child takes 50 ms to answer.
const model = new ScriptedModel((request) => {
  const last = request.messages.at(-1)!;
  if (request.sender?.agentName !== 'main') return { text: '3 TODOs in src/', delayMs: 50 };
  if (last.role === 'tool') return { text: 'Started the scan; I will report when it is done.' };
  if (String(last.content).startsWith('<background_task_results>')) return { text: 'The scan is done: 3 TODOs in src/.' };
  const args = { agent_name: 'explore', prompt: 'Count the TODOs in src/', description: 'count TODOs', background: true };
  return { toolCalls: [{ name: 'task', args }] };
});
const engine = new HarnessEngine({ model });
engine.tasks.changes.subscribe((task) => console.log(`[tasks] ${task.description}: ${task.state}`));

// The run ends at once; the task keeps running, detached from it.
const first = await engine.call('Scan for TODOs in the background', { sessionId: 'chat' });
console.log(first.text);
const [task] = engine.tasks.list('chat');

// Wait for it here; a UI would rather watch engine.tasks.changes.
const done = (await engine.tasks.whenSettled(task!.taskId))!;
console.log(`result: ${done.result}; its own events: ${engine.tasks.events(done.taskId).map((e) => e.type).join(' ')}`);

// The next prompt of the same session starts with the result, once.
const second = await engine.call('Anything new?', { sessionId: 'chat' });
console.log(second.text);

// close() cancels whatever still runs in the background and waits for it.
await engine.close();
