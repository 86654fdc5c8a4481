import { HarnessEngine, isTaskWrap, ScriptedModel } from 'rxharness';

// Three tasks; the one about "logs" would take a minute.
const model = new ScriptedModel((request) => {
  const last = request.messages.at(-1)!;
  if (request.sender?.agentName === 'main') {
    if (last.role === 'tool') return { text: last.content };
    const tasks = ['config', 'logs', 'tests'].map((topic, i) => ({ index: i + 1, agent_name: 'explore', prompt: topic, description: `check ${topic}` }));
    return { toolCalls: [{ name: 'multitask', args: { tasks } }] };
  }
  return last.content === 'logs' ? { text: 'too late', delayMs: 60_000 } : { text: `${String(last.content)}: fine`, delayMs: 10 };
});
const engine = new HarnessEngine({ model });

engine.stream('Check the project').subscribe((event) => {
  // A "stop" button on a task row does this: cancel that one task by its id.
  if (isTaskWrap(event) && event.event.type === 'RunStart' && event.taskDescription === 'check logs') {
    console.log('cancelled:', engine.cancelTask(event.taskId), engine.tasks.get(event.taskId)?.state);
  }
  if (event.type === 'RunEnd') {
    // The siblings finished; the cancelled task is a failure result; the parent ended normally.
    // (Match whole <task_result>s, not lines: a child's answer may span several lines.)
    const results = /<index>(\d+)<.*?<result_status>(\w+)<.*?CDATA\[([\s\S]*?)\]\]><\/result_content>/g;
    for (const [, index, status, content] of event.text.matchAll(results)) {
      console.log(`task ${index}: ${status}: ${content}`);
    }
    console.log(`abnormal: ${event.abnormal}`);
  }
});
