import type { Artifact, ListTasksRequest, ListTasksResponse, Part, Task } from '@a2a-js/sdk';
import type { ServerCallContext, TaskStore } from '@a2a-js/sdk/server';
import { HttpFailure } from '../../http/http-failure.js';
import { TERMINAL_STATES } from './a2a-values.js';
import { listTasksPage } from './list-tasks-page.js';

/** Seconds a message refused because every place in the store holds a running task is told to wait (`Retry-After`). */
const RETRY_AFTER_S = 5;

/**
 * The A2A tasks of a handler, in memory, at most `maxTasks` (the SDK's `InMemoryTaskStore`
 * keeps every task for ever: a client sending messages in a loop would grow it without bound).
 *
 * A task still running (not in a final state) is never forgotten, however long it stays quiet
 * (an approval can take hours): forgotten, its `tasks/get`, `tasks/cancel` and
 * `tasks/resubscribe` would answer "task not found" while its run goes on. Finished tasks are
 * forgotten oldest first (by their last update) to make room. When every place holds a
 * running task, a new message is refused ({@link reserve}) before its run starts.
 *
 * Tasks are copied in and out, as the SDK's store does, and an artifact's neighbouring plain
 * text parts are kept joined into one (see {@link joinedTextParts}). `tasks/list` answers are
 * bounded (see {@link listTasksPage}).
 */
export class BoundedTaskStore implements TaskStore {
  /** The tasks, least recently written first. */
  readonly #tasks = new Map<string, Task>();
  /** Places promised to messages whose task is not saved yet (see {@link reserve}). */
  readonly #reserved = new Set<object>();

  constructor(private readonly maxTasks: number) {}

  /**
   * Promises a place to the task of a message about to run, and returns what gives it back
   * (idempotent; the task's first save takes the place instead).
   * @throws HttpFailure `429` (with `Retry-After`) when running tasks and promised places fill the store.
   */
  reserve(): () => void {
    if (this.#running() + this.#reserved.size >= this.maxTasks) {
      throw new HttpFailure(
        429,
        `too many A2A tasks at once: all ${this.maxTasks} places of the task store (maxTasks) hold running tasks; ` +
          'try again when one has ended (tasks/cancel ends one), or give the handler a larger maxTasks',
        { 'retry-after': String(RETRY_AFTER_S) },
      );
    }
    const place = {};
    this.#reserved.add(place);
    return () => void this.#reserved.delete(place);
  }

  async save(task: Task, _context: ServerCallContext): Promise<void> {
    const copy = structuredClone(task);
    for (const artifact of copy.artifacts ?? []) artifact.parts = joinedTextParts(artifact.parts);
    if (!this.#tasks.has(task.id)) this.#takeReservedPlace();
    this.#tasks.delete(task.id); // re-inserted last: the most recent
    this.#tasks.set(task.id, copy);
    this.#evict();
  }

  async load(taskId: string, _context: ServerCallContext): Promise<Task | undefined> {
    const task = this.#tasks.get(taskId);
    return task === undefined ? undefined : structuredClone(task);
  }

  async list(params: ListTasksRequest, _context: ServerCallContext): Promise<ListTasksResponse> {
    return listTasksPage([...this.#tasks.values()], params);
  }

  /** Forgets finished tasks, least recently written first, while there are more than `maxTasks` (running ones never). */
  #evict(): void {
    let over = this.#tasks.size + this.#reserved.size - this.maxTasks;
    for (const [id, task] of this.#tasks) {
      if (over <= 0) break;
      if (!finished(task)) continue;
      this.#tasks.delete(id);
      over -= 1;
    }
  }

  #takeReservedPlace(): void {
    for (const place of this.#reserved) {
      this.#reserved.delete(place);
      return;
    }
  }

  #running(): number {
    let running = 0;
    for (const task of this.#tasks.values()) if (!finished(task)) running += 1;
    return running;
  }
}

function finished(task: Task): boolean {
  return task.status !== undefined && TERMINAL_STATES.has(task.status.state);
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
