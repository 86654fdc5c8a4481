import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { agUiHandler } from '../../../src/protocols/ag-ui/ag-ui-handler.js';
import { MULTITASK_ROUTES, runClient, serveProtocol, TASKS, TOKEN, type ProtocolServer } from '../protocol-kit.js';

/**
 * `agUiHandler` driven by `@ag-ui/client`'s `HttpAgent` in its own process: what an AG-UI
 * frontend (CopilotKit and the like) receives, with the client's own checks of the event
 * sequence (a run that finished with a subagent, a message or a step still open, or events
 * after RUN_FINISHED, would make it throw).
 */
const CLIENT = fileURLToPath(new URL('./ag-ui-client-process.ts', import.meta.url));

interface Line {
  readonly kind: 'event' | 'round' | 'error' | 'done';
  readonly round?: number;
  readonly event?: Record<string, unknown> & { type: string };
  readonly outcome?: string;
  readonly pendingToolCallIds?: string[];
  readonly interrupts?: Array<Record<string, unknown>>;
  readonly message?: string;
  readonly messages?: Array<Record<string, unknown>>;
}

let served: ProtocolServer | undefined;
afterEach(async () => {
  await served?.close();
  served = undefined;
});

const serve = (routes = MULTITASK_ROUTES, options: Parameters<typeof agUiHandler>[1] = {}) =>
  serveProtocol('/ag-ui', routes, (engine, authorize) => agUiHandler(engine, { path: '/ag-ui', authorize, ...options }));

const events = (lines: readonly Line[]) => lines.filter((l) => l.kind === 'event').map((l) => l.event!);

describe('agUiHandler through @ag-ui/client HttpAgent', () => {
  it('shows a multitask of three as three subagents, each a step named by its task description, and finishes the run once', async () => {
    served = await serve();
    const lines = await runClient<Line>(CLIENT, { url: served.url, token: TOKEN, threadId: 'thread-1', prompt: 'Survey the project' });
    expect(lines.filter((l) => l.kind === 'error')).toEqual([]);
    const seen = events(lines);
    expect(seen[0]!.type).toBe('RUN_STARTED');
    expect(seen.filter((e) => e.type === 'RUN_FINISHED' || e.type === 'RUN_ERROR').map((e) => e.type)).toEqual(['RUN_FINISHED']);
    expect(seen.at(-1)!.type).toBe('RUN_FINISHED');
    // each child: its step, its subagent (named by its agent, described by its task), its own message
    const steps = seen.filter((e) => e.type === 'STEP_STARTED').map((e) => e['stepName']);
    expect(steps.sort()).toEqual(TASKS.map((t) => t.description).sort());
    const subagents = seen.filter((e) => e.type === 'SUBAGENT_STARTED');
    expect(subagents.map((e) => e['description']).sort()).toEqual(TASKS.map((t) => t.description).sort());
    expect(subagents.every((e) => e['name'] === 'alpha' && e['parentToolCallId'] === 'call_multi')).toBe(true);
    const ids = subagents.map((e) => e['subagentRunId'] as string);
    expect(new Set(ids).size).toBe(3);
    for (const id of ids) {
      const text = seen.filter((e) => e.type === 'TEXT_MESSAGE_CONTENT' && e['subagentRunId'] === id).map((e) => e['delta']).join('');
      expect(text).toMatch(/^alpha did: /);
      expect(seen.filter((e) => e.type === 'SUBAGENT_FINISHED' && e['subagentRunId'] === id)).toHaveLength(1);
    }
    // the main run's own tool call and its result
    expect(seen.find((e) => e.type === 'TOOL_CALL_START')).toMatchObject({ toolCallId: 'call_multi', toolCallName: 'multitask' });
    expect(seen.find((e) => e.type === 'TOOL_CALL_RESULT' && e['toolCallId'] === 'call_multi')).toBeDefined();
    const finished = seen.at(-1)!;
    expect(finished['result']).toBe('All three done: 1 results.');
    // the client's own view: the answer is an assistant message of the thread
    const messages = lines.at(-1)!.messages!;
    expect(messages.some((m) => m['role'] === 'assistant' && m['content'] === 'All three done: 1 results.')).toBe(true);
  }, 60_000);

  it('cancels the run when the client aborts it: the model request is aborted at the fake server', async () => {
    served = await serve({ main: () => ({ text: 'Thinking about it for a long time', chunkSize: 4, stallAfterChunks: 2 }) });
    const lines = await runClient<Line>(CLIENT, { url: served.url, token: TOKEN, threadId: 'thread-cancel', prompt: 'Go', abortOn: 'TEXT_MESSAGE_CONTENT' });
    expect(events(lines).some((e) => e.type === 'TEXT_MESSAGE_CONTENT')).toBe(true);
    const request = await served.fixture.server.waitForClosed(0);
    expect(request.aborted).toBe(true);
    await expect.poll(() => served!.engine.runs.list()[0]?.state).toBe('cancelled');
  }, 60_000);
});
