import type { AgentEvent, TaskQueuedEvent, TaskWrapEvent } from '../../events/agent-event.js';
import type { TaskProgress, UiDataChunk } from './ui-message-chunk.js';

/**
 * The `data-task` parts of a run's subagents: one per task, its id the task id, sent again
 * (whole) whenever the task's state, step or last tool changes, so `useChat` replaces it in
 * place. A task resumed with `task_id` shows running again from its new run's start. Deltas change nothing shown here and send nothing.
 */
export class TaskProgressParts {
  readonly #tasks = new Map<string, TaskProgress>();

  /** The parts an event changes: a queued task, or a subagent's event at any depth. */
  update(event: AgentEvent, parentTaskId?: string): UiDataChunk[] {
    if (event.type === 'TaskQueued') return [this.#set(queued(event, parentTaskId))];
    if (event.type !== 'TaskWrap') return [];
    const inner = event.event;
    const own = inner.runId === event.runId;
    const known = this.#tasks.get(event.taskId);
    // A task resumed with `task_id` runs again (a new child run): its part shows it running,
    // its old answer or error gone, with the new description, not its last end.
    if (own && inner.type === 'RunStart' && known !== undefined) return [this.#set(running(event, parentTaskId))];
    const current = known ?? running(event, parentTaskId);
    const out: UiDataChunk[] = [];
    if (known === undefined || current.state === 'queued') out.push(this.#set({ ...current, state: 'running' }));
    if (inner.type === 'TaskWrap' || inner.type === 'TaskQueued') return [...out, ...this.update(inner, event.taskId)];
    if (!own) return out;
    const now = this.#tasks.get(event.taskId)!;
    switch (inner.type) {
      case 'ReasonStart':
        return [...out, this.#set({ ...now, steps: inner.step })];
      case 'ToolCallStart':
        return [...out, this.#set({ ...now, lastTool: inner.toolName })];
      case 'RunEnd': {
        const { lastTool: _tool, ...ended } = now;
        return [...out, this.#set(inner.abnormal ? { ...ended, state: 'failed', error: inner.error ?? 'the task failed' } : { ...ended, state: 'done', answer: inner.text })];
      }
      case 'RunCancelled': {
        const { lastTool: _tool, ...ended } = now;
        return [...out, this.#set({ ...ended, state: 'cancelled', error: inner.reason })];
      }
      default:
        return out;
    }
  }

  #set(progress: TaskProgress): UiDataChunk {
    this.#tasks.set(progress.taskId, progress);
    return { type: 'data-task', id: progress.taskId, data: progress };
  }
}

function queued(event: TaskQueuedEvent, parentTaskId: string | undefined): TaskProgress {
  return {
    taskId: event.taskId,
    ...(parentTaskId === undefined ? {} : { parentTaskId }),
    index: event.taskIndex,
    agent: event.taskAgentName,
    description: event.taskDescription,
    state: 'queued',
    steps: 0,
  };
}

function running(wrap: TaskWrapEvent, parentTaskId: string | undefined): TaskProgress {
  return {
    taskId: wrap.taskId,
    ...(parentTaskId === undefined ? {} : { parentTaskId }),
    index: wrap.taskIndex,
    agent: wrap.taskAgentName,
    description: wrap.taskDescription,
    state: 'running',
    steps: 0,
  };
}
