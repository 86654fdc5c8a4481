import { Role, TaskState, type Message, type Task } from '@a2a-js/sdk';
import { ServerCallContext } from '@a2a-js/sdk/server';
import { describe, expect, it } from 'vitest';
import { textArtifact, textPart, statusOf } from '../../../src/protocols/a2a/a2a-values.js';
import { BoundedTaskStore } from '../../../src/protocols/a2a/bounded-task-store.js';
import { MAX_LIST_HISTORY, MAX_LIST_PAGE_BYTES } from '../../../src/protocols/a2a/list-tasks-page.js';
import { a2aServerPerTest } from '../../support/a2a-server-per-test.js';

const a2a = a2aServerPerTest();

/** An answer of this many characters: a few of them pass what one `ListTasks` answer holds. */
const ANSWER_CHARS = 100_000;

interface ListAnswer {
  readonly result: { readonly tasks: { readonly id: string; readonly artifacts?: unknown[] }[]; readonly nextPageToken: string; readonly totalSize: number };
}

/**
 * `ListTasks` answered up to 100 whole tasks at once, their histories and (asked for) their
 * artifacts: an answer of any size. Now an answer holds about `MAX_LIST_PAGE_BYTES` of text and
 * each task's latest `MAX_LIST_HISTORY` messages; `nextPageToken` leads through the rest.
 */
describe('a2aHandler: what one ListTasks answer holds', () => {
  it('tasks with large answers come a few per page, within the bound, and the page tokens lead through every one exactly once', { timeout: 60_000 }, async () => {
    const big = 'x'.repeat(ANSWER_CHARS);
    const { url } = await a2a.serve({ main: () => ({ text: big }) });
    const ids: string[] = [];
    for (let i = 0; i < 4; i += 1) ids.push(((await rpc(url, 'message/send', { configuration: { blocking: true }, message: { kind: 'message', messageId: `m${i}`, role: 'user', parts: [{ kind: 'text', text: 'hi' }] } })) as { result: { id: string } }).result.id);

    const seen: string[] = [];
    let token = '';
    for (let page = 0; page < 10; page += 1) {
      const text = await rpcText(url, 'ListTasks', { pageSize: 100, includeArtifacts: true, ...(token ? { pageToken: token } : {}) });
      // Before the mend: one answer of all four, some 1.6 MB of JSON, and no next page.
      expect(text.length).toBeLessThan(MAX_LIST_PAGE_BYTES + 64 * 1024);
      const answer = JSON.parse(text) as ListAnswer;
      expect(answer.result.totalSize).toBe(4);
      for (const task of answer.result.tasks) expect(JSON.stringify(task.artifacts)).toContain(big);
      seen.push(...answer.result.tasks.map((t) => t.id));
      token = answer.result.nextPageToken;
      if (token === '') break;
    }
    expect(seen.length).toBeGreaterThan(0);
    expect([...seen].sort()).toEqual([...ids].sort());
  });

  it('a page token not given by the server is invalid params, saying what to send', async () => {
    const { url } = await a2a.serve({ main: () => ({ text: 'done' }) });
    expect(await rpc(url, 'ListTasks', { pageToken: 'bm90IGEgY3Vyc29y' })).toMatchObject({ error: { code: -32602, message: expect.stringContaining('nextPageToken') } });
  });

  it('a listed task holds its latest history only; one whose artifacts alone pass the bound is listed without them, saying so', async () => {
    const store = new BoundedTaskStore(10);
    const context = new ServerCallContext();
    const history = Array.from({ length: 50 }, (_, i) => userMessage(`message ${i}`));
    await store.save(task('long', history, []), context);
    await store.save(task('huge', [], [textArtifact('answer', 'answer', 'the answer', 'y'.repeat(MAX_LIST_PAGE_BYTES))]), context);

    const { tasks, nextPageToken } = await store.list({ tenant: '', contextId: '', status: TaskState.TASK_STATE_UNSPECIFIED, pageSize: 100, pageToken: '', historyLength: undefined, statusTimestampAfter: '', includeArtifacts: true }, context);
    const long = tasks.find((t) => t.id === 'long') ?? (await nextPage(store, nextPageToken, context)).find((t) => t.id === 'long');
    expect(long!.history.map((m) => (m.parts[0]!.content?.$case === 'text' ? m.parts[0]!.content.value : ''))).toEqual(history.slice(-MAX_LIST_HISTORY).map((m) => (m.parts[0]!.content as { value: string }).value));
    const huge = tasks.find((t) => t.id === 'huge')!;
    expect(huge.artifacts).toEqual([]);
    expect(huge.metadata).toMatchObject({ rxharness: { artifactsOmitted: expect.stringContaining('tasks/get') } });
    // tasks/get still reads them whole
    expect((await store.load('huge', context))!.artifacts[0]!.parts[0]!.content).toMatchObject({ value: 'y'.repeat(MAX_LIST_PAGE_BYTES) });
  });
});

async function nextPage(store: BoundedTaskStore, pageToken: string, context: ServerCallContext): Promise<Task[]> {
  if (pageToken === '') return [];
  return (await store.list({ tenant: '', contextId: '', status: TaskState.TASK_STATE_UNSPECIFIED, pageSize: 100, pageToken, historyLength: undefined, statusTimestampAfter: '', includeArtifacts: true }, context)).tasks;
}

function userMessage(text: string): Message {
  return { messageId: text, contextId: 'ctx', taskId: '', role: Role.ROLE_USER, parts: [textPart(text)], metadata: undefined, extensions: [], referenceTaskIds: [] };
}

function task(id: string, history: Message[], artifacts: Task['artifacts']): Task {
  return { id, contextId: 'ctx', status: statusOf(TaskState.TASK_STATE_COMPLETED), artifacts, history, metadata: undefined };
}

async function rpcText(url: string, method: string, params: object): Promise<string> {
  const res = await fetch(`${url}/a2a`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }) });
  return res.text();
}

async function rpc(url: string, method: string, params: object): Promise<unknown> {
  return JSON.parse(await rpcText(url, method, params));
}
