import { createServer } from 'node:http';
import { DefaultChatTransport, readUIMessageStream, type UIMessage } from 'ai';
import { HarnessEngine, ScriptedModel } from 'rxharness';
import { chatHandler } from 'rxharness/protocols';

// A main agent that hands two reviews to subagents, then answers.
const model = new ScriptedModel((request) => {
  const last = request.messages.at(-1)!;
  if (request.sender?.agentName !== 'main') return { text: `Reviewed ${String(last.content)}` };
  if (last.role === 'tool') return { text: 'Both reviews are in.' };
  const tasks = ['api', 'docs'].map((part, i) => ({ index: i + 1, agent_name: 'explore', prompt: part, description: `Review the ${part}` }));
  return { toolCalls: [{ name: 'multitask', args: { tasks } }] };
});
const engine = new HarnessEngine({ model });

// POST /api/chat: what useChat's default transport calls. The chat id is the session.
const handler = chatHandler(engine, { path: '/api/chat' });
const server = createServer((req, res) => handler(req, res) || res.writeHead(404).end());
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
const api = `http://127.0.0.1:${(server.address() as { port: number }).port}/api/chat`;

// The client side of useChat: the transport posts, readUIMessageStream builds the message.
const transport = new DefaultChatTransport<UIMessage>({ api });
const stream = await transport.sendMessages({
  trigger: 'submit-message',
  chatId: 'chat-1',
  messageId: undefined,
  messages: [{ id: 'm1', role: 'user', parts: [{ type: 'text', text: 'Review this project' }] }],
  abortSignal: undefined,
});
let message: UIMessage | undefined;
for await (const state of readUIMessageStream<UIMessage>({ stream })) message = state;

for (const part of message!.parts) {
  if (part.type === 'text') console.log('text:', part.text);
  if (part.type === 'dynamic-tool') console.log('tool:', part.toolName, part.state);
  // One data-task part per subagent, updated in place (same id) as it runs.
  if (part.type === 'data-task') {
    const task = part.data as { description: string; state: string; answer?: string };
    console.log(`task "${task.description}": ${task.state}, answered "${task.answer}"`);
  }
}

await engine.close();
server.close();
