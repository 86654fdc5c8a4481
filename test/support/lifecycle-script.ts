/**
 * Builders and readers for the task lifecycle: `task` calls that start a background task or
 * resume one, the fields of a `<task_result>`, and waiting for a tracked task to settle
 * (driven by the tracker's `changes`, never by polling).
 *
 * @module
 */
import { filter, firstValueFrom } from 'rxjs';
import type { TaskInfo, TaskTracker } from '../../src/delegation/task-tracker.js';
import type { FakeReply } from './fake-openai-server.js';
import { taskArgs } from './delegation-script.js';

/** Extra `task` arguments: `background` and `task_id`. */
export interface TaskExtras {
  readonly background?: boolean;
  readonly task_id?: string;
}

/** A fake server reply calling `task` with the lifecycle arguments. */
export function lifecycleTaskReply(agent: string, prompt: string, extras: TaskExtras, description?: string): FakeReply {
  return { toolCalls: [{ name: 'task', arguments: { ...taskArgs(agent, prompt, description), ...extras } }] };
}

/** A fake server reply calling `generate`. */
export function generateReply(args: Record<string, unknown>): FakeReply {
  return { toolCalls: [{ name: 'generate', arguments: args }] };
}

/** The fields of the first `<task_result>` in a text. */
export interface ParsedTaskResult {
  readonly taskId: string;
  readonly agentName: string;
  readonly status: string;
  readonly content: string;
}

/** Reads the first `<task_result>` of a tool result; throws when there is none. */
export function parseTaskResult(text: string): ParsedTaskResult {
  const field = (tag: string): string => {
    const match = new RegExp(`<${tag}>([\\s\\S]*?)</${tag}>`).exec(text);
    if (!match) throw new Error(`no <${tag}> in: ${text}`);
    return match[1]!;
  };
  const content = field('result_content').replace(/^<!\[CDATA\[/, '').replace(/\]\]>$/, '');
  return { taskId: field('task_id'), agentName: field('agent_name'), status: field('result_status'), content };
}

/** Resolves with the task's snapshot once it is no longer running (at once if it already is not). */
export function settled(tracker: TaskTracker, taskId: string): Promise<TaskInfo> {
  const now = tracker.get(taskId);
  if (now && now.state !== 'running') return Promise.resolve(now);
  return firstValueFrom(tracker.changes.pipe(filter((t) => t.taskId === taskId && t.state !== 'running')));
}
