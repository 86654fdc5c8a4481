import { HarnessEngine, ScriptedModel, unwrapTaskEvents } from 'rxharness';

// The main agent fans out three tasks; each child answers after 20 ms.
const model = new ScriptedModel((request) => {
  const last = request.messages.at(-1)!;
  if (request.sender?.agentName !== 'main') return { text: `Looked at ${String(last.content)}`, delayMs: 20 };
  if (last.role === 'tool') return { text: 'Survey complete.' };
  const tasks = ['src', 'test', 'docs'].map((dir, i) => ({ index: i + 1, agent_name: 'explore', prompt: `${dir}/`, description: `survey ${dir}` }));
  return { toolCalls: [{ name: 'multitask', args: { tasks } }] };
});
// A pool of 2: at most two children run at once, the third waits for a free slot.
const engine = new HarnessEngine({ model, multitaskMaxTasks: 2 });

const tasks = new Map<string, string[]>();
let running = 0;
let peak = 0;
engine
  .stream('Survey the project')
  .pipe(unwrapTaskEvents())
  .subscribe(({ event, path }) => {
    const frame = path.at(-1); // the innermost wrapper names the task that produced the event
    if (!frame) {
      if (event.type === 'RunEnd') console.log(`main: ${event.text} (peak ${peak} children at once)`);
      return;
    }
    // Group by parentRunId + taskId: two tasks may run the same agent, and ids are per task.
    const key = `${frame.parentRunId}/${frame.taskId}`;
    tasks.set(key, [...(tasks.get(key) ?? []), event.type]);
    if (event.type === 'RunStart') peak = Math.max(peak, ++running);
    if (event.type === 'RunEnd') {
      running -= 1;
      console.log(`task ${frame.taskIndex} (${frame.taskAgentName}, "${frame.taskDescription}"): ${event.text}`);
    }
  });
