import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { chatHandler } from '../../../src/protocols/ui-message-stream/chat-handler.js';
import { MULTITASK_ROUTES, runClient, serveProtocol, TASKS, TOKEN, type ProtocolServer } from '../protocol-kit.js';

/**
 * `chatHandler` driven by the `ai` package's own client (`DefaultChatTransport` and
 * `readUIMessageStream`, as `useChat` uses them) in its own process: the message a `useChat`
 * page would show, built by the SDK from our stream (it refuses chunks that break the protocol).
 */
const CLIENT = fileURLToPath(new URL('./chat-client-process.ts', import.meta.url));

interface Part {
  readonly type: string;
  readonly id?: string;
  readonly text?: string;
  readonly state?: string;
  readonly toolName?: string;
  readonly toolCallId?: string;
  readonly output?: unknown;
  readonly data?: Record<string, unknown>;
}
interface Line {
  readonly kind: 'message' | 'error' | 'done';
  readonly message?: { readonly id: string; readonly role: string; readonly parts: Part[]; readonly metadata?: Record<string, unknown> } | string;
}

let served: ProtocolServer | undefined;
afterEach(async () => {
  await served?.close();
  served = undefined;
});

const serve = (routes = MULTITASK_ROUTES, options: Parameters<typeof chatHandler>[1] = {}) =>
  serveProtocol('/api/chat', routes, (engine, authorize) => chatHandler(engine, { path: '/api/chat', authorize, ...options }));

const messages = (lines: readonly Line[]) => lines.filter((l) => l.kind === 'message').map((l) => l.message as Exclude<Line['message'], string | undefined>);

describe('chatHandler through the ai package (DefaultChatTransport, readUIMessageStream)', () => {
  it('shows a multitask of three as three data-task parts updated in place, named by their descriptions, with the text and the tool part', async () => {
    served = await serve();
    const lines = await runClient<Line>(CLIENT, { url: served.url, token: TOKEN, chatId: 'chat-1', prompt: 'Survey the project' });
    expect(lines.filter((l) => l.kind === 'error')).toEqual([]);
    const states = messages(lines);
    const last = states.at(-1)!;
    expect(last.role).toBe('assistant');
    // three task parts (one per task id, however many updates each got), all done, each named by its description
    const tasks = last.parts.filter((p) => p.type === 'data-task');
    expect(tasks).toHaveLength(3);
    expect(tasks.map((p) => p.data!['description']).sort()).toEqual(TASKS.map((t) => t.description).sort());
    expect(tasks.every((p) => p.data!['state'] === 'done' && String(p.data!['answer']).startsWith('alpha did: ') && p.id === p.data!['taskId'])).toBe(true);
    // updated in place: an earlier state of the message showed a task running
    expect(states.some((m) => m.parts.some((p) => p.type === 'data-task' && p.data!['state'] === 'running'))).toBe(true);
    // the main agent's tool call with its output, and its text
    const tool = last.parts.find((p) => p.type === 'dynamic-tool')!;
    expect(tool).toMatchObject({ toolName: 'multitask', toolCallId: 'call_multi', state: 'output-available' });
    const text = last.parts.filter((p) => p.type === 'text').map((p) => p.text).join('|');
    expect(text).toBe('Delegating.|All three done: 1 results.');
    expect(last.parts.filter((p) => p.type === 'step-start')).toHaveLength(2);
    expect(last.metadata).toMatchObject({ runId: served.engine.runs.list()[0]!.runId, sessionId: 'chat-1' });
  }, 60_000);

  it('cancels the run when the client aborts the request: the model request is aborted at the fake server', async () => {
    served = await serve({ main: () => ({ text: 'Thinking about it for a long time', chunkSize: 4, stallAfterChunks: 2 }) });
    const lines = await runClient<Line>(CLIENT, { url: served.url, token: TOKEN, chatId: 'chat-cancel', prompt: 'Go', abortOnPart: 'text' });
    expect(messages(lines).some((m) => m.parts.some((p) => p.type === 'text'))).toBe(true);
    const request = await served.fixture.server.waitForClosed(0);
    expect(request.aborted).toBe(true);
    await expect.poll(() => served!.engine.runs.list()[0]?.state).toBe('cancelled');
  }, 60_000);

  it('refuses a client without the token (401), a second run on a busy chat (409), and a run over the cap (429)', async () => {
    served = await serve({ main: () => ({ hang: true }) }, { maxRuns: 2 });
    const url = served.url;
    const noToken = await runClient<Line>(CLIENT, { url, chatId: 'chat-a', prompt: 'hi' });
    expect(noToken.find((l) => l.kind === 'error')?.message).toMatch(/not authorized/);
    expect(served.fixture.server.requests).toHaveLength(0);
    const holdingA = runClient<Line>(CLIENT, { url, token: TOKEN, chatId: 'chat-a', prompt: 'hold' });
    await served.fixture.server.waitForRequests(1, 30_000);
    const busy = await runClient<Line>(CLIENT, { url, token: TOKEN, chatId: 'chat-a', prompt: 'again' });
    expect(busy.find((l) => l.kind === 'error')?.message).toMatch(/busy|in use|another run/i);
    const holdingB = runClient<Line>(CLIENT, { url, token: TOKEN, chatId: 'chat-b', prompt: 'hold' });
    await served.fixture.server.waitForRequests(2, 30_000);
    const overCap = await runClient<Line>(CLIENT, { url, token: TOKEN, chatId: 'chat-c', prompt: 'more' });
    expect(overCap.find((l) => l.kind === 'error')?.message).toMatch(/too many runs/);
    expect(served.fixture.server.requests).toHaveLength(2);
    await served.close();
    served = undefined;
    // the held runs were cancelled by the engine's close: each client read an error chunk
    for (const held of await Promise.all([holdingA, holdingB])) expect(held.find((l) => l.kind === 'error')).toBeDefined();
  }, 90_000);
});
