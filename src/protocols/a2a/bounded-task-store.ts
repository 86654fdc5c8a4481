import type { Artifact, ListTasksRequest, ListTasksResponse, Part, Task } from '@a2a-js/sdk';
import type { ServerCallContext, TaskStore } from '@a2a-js/sdk/server';

/**
 * The A2A tasks of a handler, in memory, the latest `maxTasks` kept (the SDK's
 * `InMemoryTaskStore` keeps every task for ever: a client sending messages in a loop would
 * grow it without bound). A task written again counts as recent; `tasks/get` of an evicted
 * one answers "task not found". Tasks are copied in and out, as the SDK's store does, and an
 * artifact's neighbouring plain text parts are kept joined into one (see {@link joinedTextParts}).
 */
export class BoundedTaskStore implements TaskStore {
  readonly #tasks = new Map<string, Task>();

  constructor(private readonly maxTasks: number) {}

  async save(task: Task, _context: ServerCallContext): Promise<void> {
    const copy = structuredClone(task);
    for (const artifact of copy.artifacts ?? []) artifact.parts = joinedTextParts(artifact.parts);
    this.#tasks.delete(task.id); // re-inserted last: the most recent
    this.#tasks.set(task.id, copy);
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

/**
 * `parts` with each run of neighbouring plain text parts (same media type and file name, no
 * metadata) joined into one. The SDK appends a part per streamed chunk, and copies the whole
 * task out of the store and back for every update: with a part per chunk, a long run's
 * answer (25,000 chunks) cost tens of milliseconds per update, ten updates a second.
 */
function joinedTextParts(parts: Artifact['parts']): Part[] {
  const joined: Part[] = [];
  for (const part of parts ?? []) {
    const last = joined.at(-1);
    if (last !== undefined && plainText(last) && plainText(part) && last.mediaType === part.mediaType && last.filename === part.filename) {
      last.content = { $case: 'text', value: last.content.value + part.content.value };
    } else joined.push(part);
  }
  return joined;
}

/** A text part without metadata: one that can be joined with its neighbour and mean the same. */
function plainText(part: Part): part is Part & { content: { $case: 'text'; value: string } } {
  return part.content?.$case === 'text' && (part.metadata === undefined || Object.keys(part.metadata).length === 0);
}
