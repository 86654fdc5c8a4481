import { createServer } from 'node:http';
import { HttpAgent } from '@ag-ui/client';
import { HarnessEngine, ScriptedModel } from 'rxharness';
import { agUiHandler } from 'rxharness/protocols';

// A main agent that hands three surveys to subagents, then answers.
const model = new ScriptedModel((request) => {
  const last = request.messages.at(-1)!;
  if (request.sender?.agentName !== 'main') return { text: `Looked at ${String(last.content)}` };
  if (last.role === 'tool') return { text: 'Survey complete.' };
  const tasks = ['src', 'test', 'docs'].map((dir, i) => ({ index: i + 1, agent_name: 'explore', prompt: `${dir}/`, description: `Survey ${dir}/` }));
  return { toolCalls: [{ name: 'multitask', args: { tasks } }] };
});
const engine = new HarnessEngine({ model });
const token = 'a-secret-for-your-frontend';

// POST /ag-ui: a RunAgentInput in, AG-UI events out (server-sent).
const handler = agUiHandler(engine, { path: '/ag-ui', authorize: (req) => req.headers.authorization === `Bearer ${token}` });
const server = createServer((req, res) => handler(req, res) || res.writeHead(404).end());
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
const url = `http://127.0.0.1:${(server.address() as { port: number }).port}/ag-ui`;

// The frontend: @ag-ui/client's HttpAgent (what CopilotKit uses). threadId is the session.
const agent = new HttpAgent({ url, threadId: 'thread-1', headers: { authorization: `Bearer ${token}` } });
agent.addMessage({ id: 'm1', role: 'user', content: 'Survey this project' });
const steps: string[] = [];
await agent.runAgent(
  {},
  {
    onStepStartedEvent: ({ event }) => void steps.push(event.stepName),
    onRunFinishedEvent: (finished) => console.log('finished:', finished.outcome === 'success' ? finished.result : finished.outcome),
  },
);
console.log('subagents shown as steps:', steps.sort().join(', '));
console.log('the thread now holds', agent.messages.length, 'messages; the last says:', agent.messages.at(-1)?.content);

await engine.close();
server.close();
