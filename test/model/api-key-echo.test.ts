/**
 * A server or proxy that echoes the request's `Authorization` header in its error body must
 * not put the API key in the error a run ends with (its `RunEnd`, spans and the CLI print it).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { ReActAgent } from '../../src/agent/react-agent.js';
import type { AgentEvent } from '../../src/events/agent-event.js';
import { OpenAIChatModel } from '../../src/model/openai-chat-model.js';
import { collect } from '../support/collect-events.js';
import { FakeOpenAIServer } from '../support/fake-openai-server.js';

const KEY = 'sk-proj-not-a-real-key-0123456789';
let server: FakeOpenAIServer | undefined;
afterEach(async () => {
  await server?.close();
});

describe('an error body that echoes the Authorization header', () => {
  it('is said with the key shown as <api key>, its status kept', async () => {
    server = await FakeOpenAIServer.start({
      handler: (r) => ({ status: 401, errorMessage: `invalid credentials in header "${String(r.headers['authorization'])}" (key ${KEY.slice(0, 3)}…: ${KEY})` }),
    });
    const model = new OpenAIChatModel({ model: 'fake-model', baseURL: server.baseURL, apiKey: KEY, maxRetries: 0 });
    const events: AgentEvent[] = await collect(new ReActAgent({ model }).stream('hi'));
    const end = events.at(-1);
    expect(end).toMatchObject({ type: 'RunEnd', abnormal: true });
    const text = JSON.stringify(events);
    expect(text).not.toContain(KEY);
    expect(end && 'error' in end ? end.error : '').toContain('HTTP 401: invalid credentials in header "Bearer <api key>" (key sk-…: <api key>)');
  });
});
