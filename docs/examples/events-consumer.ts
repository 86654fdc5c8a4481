import { HarnessEngine, isTaskWrap, ScriptedModel, type AgentEvent } from 'rxharness';

// The main agent delegates two tasks to the same agent; each child answers; then the main agent ends.
const model = new ScriptedModel((request) => {
  const last = request.messages.at(-1)!;
  if (request.sender?.agentName === 'main') {
    if (last.role === 'tool') return { text: 'Both parts are done.' };
    const tasks = [1, 2].map((index) => ({ index, agent_name: 'explore', prompt: `Part ${index}`, description: `part ${index}` }));
    return { toolCalls: [{ name: 'multitask', args: { tasks } }] };
  }
  return { text: `Finished ${String(last.content)}.` };
});
const engine = new HarnessEngine({ model });

// Group child events by parentRunId + taskId: two tasks may run the same agent.
const tasks = new Map<string, string[]>();

engine.stream('Do both parts').subscribe({
  next(event: AgentEvent) {
    if (isTaskWrap(event)) {
      const key = `${event.parentRunId}/${event.taskId}`;
      const log = tasks.get(key) ?? [];
      log.push(event.event.type); // the child's own event, unwrapped
      tasks.set(key, log);
      if (event.event.type === 'RunEnd') console.log(`task ${event.taskIndex} (${event.taskAgentName}) ended`);
    } else if (event.type === 'RunEnd') {
      // Only the unwrapped RunEnd is the run's own end; abnormal says whether it failed.
      console.log(event.abnormal ? `run failed: ${event.error}` : `run ended: ${event.text}`);
    }
  },
  error(error: Error) {
    console.log(`no RunEnd: the run broke or was aborted (${error.name})`);
  },
  complete() {
    console.log(`${tasks.size} tasks seen; events of the first:`, [...tasks.values()][0]?.join(' '));
  },
});
