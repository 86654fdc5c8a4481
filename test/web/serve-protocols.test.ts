import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { runClient } from '../protocols/protocol-kit.js';
import { useDemoServers } from '../support/demo-servers.js';

/**
 * `rxharness serve` (startDemoServer) mounts AG-UI at POST /ag-ui and the UI message stream at
 * POST /api/chat, behind the token every other route needs: driven by each protocol's own
 * client in its own process.
 */
const AG_UI_CLIENT = fileURLToPath(new URL('../protocols/ag-ui/ag-ui-client-process.ts', import.meta.url));
const CHAT_CLIENT = fileURLToPath(new URL('../protocols/ui-message-stream/chat-client-process.ts', import.meta.url));

const servers = useDemoServers();

describe('serve mounts the protocols behind its token', () => {
  it('answers POST /ag-ui and POST /api/chat with the token, and refuses both without it (401)', async () => {
    const { demo, fake } = await servers.start({ fake: () => ({ text: 'served by the fake model' }) });
    const origin = new URL(demo.url).origin;
    const [agUi, agUiNoToken, chat, chatNoToken] = await Promise.all([
      runClient<Record<string, unknown>>(AG_UI_CLIENT, { url: `${origin}/ag-ui`, token: demo.token, threadId: 'thread-serve', prompt: 'hi' }),
      runClient<Record<string, unknown>>(AG_UI_CLIENT, { url: `${origin}/ag-ui`, threadId: 'thread-none', prompt: 'hi' }),
      runClient<Record<string, unknown>>(CHAT_CLIENT, { url: `${origin}/api/chat`, token: demo.token, chatId: 'chat-serve', prompt: 'hi' }),
      runClient<Record<string, unknown>>(CHAT_CLIENT, { url: `${origin}/api/chat`, chatId: 'chat-none', prompt: 'hi' }),
    ]);
    const finished = agUi.filter((l) => l['kind'] === 'event').map((l) => l['event'] as { type: string; result?: string }).at(-1);
    expect(finished).toMatchObject({ type: 'RUN_FINISHED', result: 'served by the fake model' });
    expect(agUiNoToken.find((l) => l['kind'] === 'error')?.['message']).toMatch(/401/);
    const message = chat.filter((l) => l['kind'] === 'message').at(-1)?.['message'] as { parts: Array<{ type: string; text?: string }> };
    expect(message.parts.filter((p) => p.type === 'text').map((p) => p.text)).toEqual(['served by the fake model']);
    expect(chatNoToken.find((l) => l['kind'] === 'error')?.['message']).toMatch(/token/);
    // only the two runs with the token reached the model, and they are the page's runs too
    expect(fake!.requests).toHaveLength(2);
    expect(demo.engine.runs.list().map((r) => r.sessionId).sort()).toEqual(['chat-serve', 'thread-serve']);
  }, 90_000);

  it('counts every route that starts runs against one --max-runs: a run held on the page route leaves no slot for /ag-ui, /api/chat or /a2a (429)', async () => {
    const { demo, fake } = await servers.start({ fake: () => ({ hang: true }), server: { maxRuns: 1 } });
    const origin = new URL(demo.url).origin;
    const post = (path: string, body: unknown): Promise<Response> =>
      fetch(`${origin}${path}`, { method: 'POST', headers: { authorization: `Bearer ${demo.token}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
    const held = await post('/api/runs', { prompt: 'hold the only slot' });
    expect(held.status).toBe(201);
    await fake!.waitForRequests(1);
    const agUi = await post('/ag-ui', { threadId: 't1', runId: 'r1', messages: [{ id: 'm1', role: 'user', content: 'hi' }], tools: [], context: [], state: {}, forwardedProps: {} });
    const chat = await post('/api/chat', { id: 'c1', messages: [{ id: 'm1', role: 'user', parts: [{ type: 'text', text: 'hi' }] }] });
    const a2a = await post('/a2a', { jsonrpc: '2.0', id: 1, method: 'message/send', params: { message: { kind: 'message', messageId: 'm1', role: 'user', parts: [{ kind: 'text', text: 'hi' }] } } });
    expect([agUi.status, chat.status, a2a.status]).toEqual([429, 429, 429]);
    expect(agUi.headers.get('retry-after')).toBeTruthy();
    // none of them reached the model: only the held run's request did
    expect(fake!.requests).toHaveLength(1);
  }, 90_000);
});
