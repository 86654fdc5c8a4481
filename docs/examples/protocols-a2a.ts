import { createServer } from 'node:http';
import { lastValueFrom, tap } from 'rxjs';
import { Role, TaskState } from '@a2a-js/sdk';
import { ClientFactory, ClientFactoryOptions, DefaultAgentCardResolver, JsonRpcTransportFactory } from '@a2a-js/sdk/client';
import { defineAgent, HarnessEngine, isTaskWrap, ScriptedModel } from 'rxharness';
import { a2aHandler } from 'rxharness/protocols';

// A main agent that hands three surveys to subagents, then answers.
const model = new ScriptedModel((request) => {
  const last = request.messages.at(-1)!;
  if (request.sender?.agentName !== 'main') return { text: `Looked at ${String(last.content)}` };
  if (last.role === 'tool') return { text: 'Survey complete.' };
  const tasks = ['src', 'test', 'docs'].map((dir, i) => ({ index: i + 1, agent_name: 'explore', prompt: `${dir}/`, description: `Survey ${dir}/` }));
  return { toolCalls: [{ name: 'multitask', args: { tasks } }] };
});
const engine = new HarnessEngine({ model });
const token = 'a-secret-for-other-agents';

// The agent card at /.well-known/agent-card.json, JSON-RPC at /a2a.
const handler = a2aHandler(engine, { authorize: (req) => req.headers.authorization === `Bearer ${token}` });
const server = createServer(handler);
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
const base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;

// Another agent: @a2a-js/sdk's client reads the card, then streams a message (message/stream).
const fetchImpl: typeof fetch = (url, init) => fetch(url, { ...init, headers: { ...(init?.headers as Record<string, string>), authorization: `Bearer ${token}` } });
const factory = new ClientFactory(
  ClientFactoryOptions.createFrom(ClientFactoryOptions.default, {
    transports: [new JsonRpcTransportFactory({ fetchImpl })],
    cardResolver: new DefaultAgentCardResolver({ fetchImpl }),
  }),
);
const client = await factory.createFromUrl(base);
const text = { content: { $case: 'text' as const, value: 'Survey this project' }, metadata: undefined, filename: '', mediaType: 'text/plain' };
const message = { messageId: 'm1', contextId: '', taskId: '', role: Role.ROLE_USER, parts: [text], metadata: undefined, extensions: [], referenceTaskIds: [] };
for await (const { payload } of client.sendMessageStream({ tenant: '', message, configuration: undefined, metadata: undefined })) {
  if (payload?.$case !== 'statusUpdate') continue;
  const status = payload.value.status!;
  const said = status.message?.parts.map((p) => (p.content?.$case === 'text' ? p.content.value : '')).join('');
  console.log(`${TaskState[status.state]}: ${said}`);
}

// The same server as a subagent of a second engine: a definition with `a2a: <card URL>`.
const local = new HarnessEngine({
  // Sent as the bearer token to remote A2A agents (else RXHARNESS_A2A_TOKEN); `headers` gives each its own.
  a2a: { token },
  model: new ScriptedModel((request) =>
    request.messages.at(-1)!.role === 'tool'
      ? { text: `The remote agent said: ${String(request.messages.at(-1)!.content)}` }
      : { toolCalls: [{ name: 'task', args: { agent_name: 'surveyor', prompt: 'Survey this project', description: 'Remote survey' } }] },
  ),
});
local.agents.add(defineAgent({ name: 'surveyor', description: 'Surveys projects (remote)', systemPrompt: '', a2a: `${base}/.well-known/agent-card.json` }));
const events = local.stream('Get a survey').pipe(
  // The remote agent's updates arrive wrapped like any child's.
  tap((event) => isTaskWrap(event) && event.event.type === 'RunEnd' && console.log(`remote task "${event.taskDescription}" ended: ${event.event.text}`)),
);
const end = await lastValueFrom(events);
console.log(end.type === 'RunEnd' ? end.text : end.type);
await local.close();
await engine.close();
server.close();
