import { createDemoModel, HarnessEngine, toUiItems } from 'rxharness';

const engine = new HarnessEngine({ model: createDemoModel({ chunkDelayMs: 0 }) });

// A UI keeps one card per task, keyed by groupKey (parentRunId/taskId), plus the main run.
const cards = new Map<string, { title: string; status: string; text: string }>();

engine
  .stream('Survey this project')
  .pipe(toUiItems())
  .subscribe((item) => {
    const key = item.groupKey ?? 'main';
    const card = cards.get(key) ?? { title: item.taskDescription ?? 'main', status: 'running', text: '' };
    if (item.kind === 'text-delta') card.text += item.text;
    if (item.kind === 'tool-start') card.status = `running ${item.toolName}`;
    if (item.kind === 'task-end' || item.kind === 'result') card.status = item.abnormal ? 'failed' : 'done';
    cards.set(key, card);
    if (item.kind === 'result') for (const c of cards.values()) console.log(`${c.status.padEnd(6)} ${c.title}: ${c.text.slice(0, 60)}`);
  });
