import { RequestMalformedError } from '@a2a-js/sdk/errors';
import { TaskState, type ListTasksRequest, type ListTasksResponse, type Message, type Part, type Task } from '@a2a-js/sdk';

/**
 * The most messages of each task's history a `tasks/list` answer holds (the latest ones; a
 * smaller `historyLength` gives fewer). `tasks/get` of one task gives its whole history.
 */
export const MAX_LIST_HISTORY = 20;

/**
 * About how many bytes of text (message and artifact parts) one `tasks/list` answer holds:
 * a page ends before the task that would pass it, and `nextPageToken` goes on from there. A
 * task whose artifacts alone pass it is listed without them (`metadata.rxharness.artifactsOmitted`;
 * `tasks/get` reads them). Without it, 100 tasks with their answers made one answer of any size.
 */
export const MAX_LIST_PAGE_BYTES = 1024 * 1024;

/** What a message or part costs besides its text, roughly (ids, roles, field names). */
const OVERHEAD_BYTES = 200;

/**
 * One page of `tasks/list` from `tasks` (any order): those matching the filters, latest
 * status first (ties by id), from after `pageToken`, at most `pageSize` (default 50, at most
 * 100) and {@link MAX_LIST_PAGE_BYTES}, each with its latest {@link MAX_LIST_HISTORY}
 * messages, artifacts only with `includeArtifacts`. The tasks are copies.
 *
 * @throws RequestMalformedError for a `pageToken` this store did not give.
 */
export function listTasksPage(tasks: readonly Task[], params: ListTasksRequest): ListTasksResponse {
  const pageSize = Math.min(Math.max(params.pageSize ?? 50, 1), 100);
  const after = params.statusTimestampAfter ? Date.parse(params.statusTimestampAfter) : undefined;
  const matching = tasks
    .filter((task) => !params.contextId || task.contextId === params.contextId)
    .filter((task) => !params.status || task.status?.state === params.status)
    .filter((task) => after === undefined || Date.parse(task.status?.timestamp ?? '') > after)
    .sort(latestFirst);
  const cursor = params.pageToken ? readCursor(params.pageToken) : undefined;
  const rest = cursor === undefined ? matching : matching.filter((task) => latestFirst(task, cursor) > 0);
  const page: Task[] = [];
  let bytes = 0;
  for (const task of rest) {
    if (page.length === pageSize) break;
    const listed = listedCopy(task, params.includeArtifacts === true);
    const size = textBytes(listed);
    if (page.length > 0 && bytes + size > MAX_LIST_PAGE_BYTES) break;
    page.push(listed);
    bytes += size;
  }
  const last = page.at(-1);
  const more = last !== undefined && rest.length > page.length;
  return { tasks: page, nextPageToken: more ? cursorOf(last) : '', pageSize, totalSize: matching.length };
}

/** A copy of `task` as listed: its latest messages, its artifacts when asked for and when they fit a page. */
function listedCopy(task: Task, includeArtifacts: boolean): Task {
  const history = task.history.slice(-MAX_LIST_HISTORY);
  const artifacts = includeArtifacts ? task.artifacts : [];
  const listed = structuredClone({ ...task, history, artifacts });
  if (textBytes(listed) <= MAX_LIST_PAGE_BYTES || artifacts.length === 0) return listed;
  // Its artifacts alone would fill pages: listed without them, and saying so.
  const rxharness = typeof listed.metadata?.rxharness === 'object' && listed.metadata.rxharness !== null ? listed.metadata.rxharness : {};
  return {
    ...listed,
    artifacts: [],
    metadata: { ...listed.metadata, rxharness: { ...rxharness, artifactsOmitted: `larger than a tasks/list answer holds (${MAX_LIST_PAGE_BYTES} bytes): read them with tasks/get` } },
  };
}

/** Roughly the bytes of a task's text: its status message, history and artifacts. */
function textBytes(task: Task): number {
  const messages: (Message | undefined)[] = [task.status?.message, ...task.history];
  let bytes = OVERHEAD_BYTES;
  for (const message of messages) if (message !== undefined) bytes += OVERHEAD_BYTES + partsBytes(message.parts);
  for (const artifact of task.artifacts) bytes += OVERHEAD_BYTES + partsBytes(artifact.parts);
  return bytes;
}

function partsBytes(parts: readonly Part[]): number {
  let bytes = 0;
  for (const part of parts) {
    const content = part.content;
    // a character may take up to 3 bytes in UTF-8; data and file parts counted as their JSON
    bytes += OVERHEAD_BYTES + (content?.$case === 'text' ? content.value.length * 3 : JSON.stringify(content ?? null).length);
  }
  return bytes;
}

/** Latest status first, then by id (descending): the order pages follow. Negative when `a` comes first. */
function latestFirst(a: Pick<Task, 'id' | 'status'>, b: Pick<Task, 'id' | 'status'>): number {
  const [ta, tb] = [a.status?.timestamp ?? '', b.status?.timestamp ?? ''];
  if (ta !== tb) return ta < tb ? 1 : -1;
  return a.id === b.id ? 0 : a.id < b.id ? 1 : -1;
}

/** The page token of the last task of a page: its status time and id. */
function cursorOf(task: Task): string {
  return Buffer.from(JSON.stringify([task.status?.timestamp ?? '', task.id])).toString('base64url');
}

function readCursor(token: string): Pick<Task, 'id' | 'status'> {
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(token, 'base64url').toString('utf8'));
  } catch {
    value = undefined;
  }
  if (!Array.isArray(value) || value.length !== 2 || typeof value[0] !== 'string' || typeof value[1] !== 'string') {
    throw new RequestMalformedError('pageToken is not one this server gave: send the nextPageToken of the previous tasks/list answer, or none for the first page');
  }
  return { id: value[1], status: { state: TaskState.TASK_STATE_UNSPECIFIED, timestamp: value[0], message: undefined } };
}
