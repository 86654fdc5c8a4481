import type { ListTasksRequest, ListTasksResponse, Task } from '@a2a-js/sdk';
import type { ServerCallContext, TaskStore } from '@a2a-js/sdk/server';

/**
 * The A2A tasks of a handler, in memory, the latest `maxTasks` kept (the SDK's
 * `InMemoryTaskStore` keeps every task for ever: a client sending messages in a loop would
 * grow it without bound). A task written again counts as recent; `tasks/get` of an evicted
 * one answers "task not found". Tasks are copied in and out, as the SDK's store does.
 */
export class BoundedTaskStore implements TaskStore {
  readonly #tasks = new Map<string, Task>();

  constructor(private readonly maxTasks: number) {}

  async save(task: Task, _context: ServerCallContext): Promise<void> {
    this.#tasks.delete(task.id); // re-inserted last: the most recent
    this.#tasks.set(task.id, structuredClone(task));
    for (const oldest of this.#tasks.keys()) {
      if (this.#tasks.size <= this.maxTasks) break;
      this.#tasks.delete(oldest);
    }
  }

  async load(taskId: string, _context: ServerCallContext): Promise<Task | undefined> {
    const task = this.#tasks.get(taskId);
    return task === undefined ? undefined : structuredClone(task);
  }

  async list(params: ListTasksRequest, _context: ServerCallContext): Promise<ListTasksResponse> {
    const pageSize = Math.min(Math.max(params.pageSize ?? 50, 1), 100);
    const matching = [...this.#tasks.values()]
      .reverse()
      .filter((task) => (!params.contextId || task.contextId === params.contextId) && (!params.status || task.status?.state === params.status));
    const tasks = matching.slice(0, pageSize).map((task) => structuredClone(params.includeArtifacts ? task : { ...task, artifacts: [] }));
    return { tasks, nextPageToken: '', pageSize, totalSize: matching.length };
  }
}
