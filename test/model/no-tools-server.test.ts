import { firstValueFrom, toArray } from 'rxjs';
import { afterEach, describe, expect, it } from 'vitest';
import { FakeOpenAIServer } from '../support/fake-openai-server.js';
import { openAIModelFor } from '../support/openai-model.js';

const TOOLS = [{ name: 'read', description: 'Reads.', parameters: { type: 'object' } }];
const HELLO = [{ role: 'user' as const, content: 'hi' }];

describe('a server that does not accept tools', () => {
  let server: FakeOpenAIServer | undefined;
  afterEach(async () => {
    await server?.close();
  });

  it('its refusal of a request with tools says what to do', async () => {
    server = await FakeOpenAIServer.start({ replies: [{ status: 500, errorMessage: 'tools param requires --jinja flag' }] });
    const error = await firstValueFrom(openAIModelFor(server).stream({ messages: HELLO, tools: TOOLS })).catch((e: unknown) => e as Error);
    expect(error).toMatchObject({ name: 'ModelError' });
    expect((error as Error).message).toMatch(/^model "fake-model": HTTP 500: tools param requires --jinja flag \(the request offered tools, and this server seems not to accept them: .*llama-server with --jinja/);
  });

  it('the same words about something else, or a request without tools, get no hint', async () => {
    server = await FakeOpenAIServer.start({ replies: [{ status: 400, errorMessage: 'bad tools param' }, { status: 400, errorMessage: 'prompt too odd' }] });
    const model = openAIModelFor(server);
    const first = await firstValueFrom(model.stream({ messages: HELLO })).catch((e: unknown) => e as Error);
    expect((first as Error).message).toBe('model "fake-model": HTTP 400: bad tools param');
    const second = await firstValueFrom(model.stream({ messages: HELLO, tools: TOOLS })).catch((e: unknown) => e as Error);
    expect((second as Error).message).toBe('model "fake-model": HTTP 400: prompt too odd');
  });

  it('a request with no tools sends no tools field at all', async () => {
    server = await FakeOpenAIServer.start({ replies: [{ text: 'ok' }] });
    await firstValueFrom(openAIModelFor(server).stream({ messages: HELLO, tools: [] }).pipe(toArray()));
    expect(server.requests[0]!.body).not.toHaveProperty('tools');
    expect(server.requests[0]!.body).not.toHaveProperty('tool_choice');
  });
});
