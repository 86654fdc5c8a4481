import { createDemoModel, HarnessEngine, OpenAIChatModel, unwrapTaskEvents } from 'rxharness';

// A real model when a key is set, the offline scripted demo otherwise.
const model = process.env.OPENAI_API_KEY
  ? new OpenAIChatModel({ model: process.env.RXHARNESS_MODEL ?? 'gpt-4o-mini' })
  : createDemoModel({ chunkDelayMs: 0 });

const engine = new HarnessEngine({ model, workspace: process.cwd(), multitaskMaxTasks: 3 });

engine
  .stream('Survey this project')
  .pipe(unwrapTaskEvents())
  .subscribe(({ event, path }) => {
    const who = path.map((frame) => `${frame.taskAgentName}#${frame.taskIndex}`).join(' > ') || 'main';
    if (event.type === 'ToolCallStart') console.log(`${who}: calls ${event.toolName}`);
    if (event.type === 'RunEnd') console.log(`${who}: ${path.length ? 'task ended' : 'run ended'}\n${event.text}`);
  });
