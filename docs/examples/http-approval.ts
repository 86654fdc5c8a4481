import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defineAgent, HarnessEngine, runsHandler, ScriptedModel } from 'rxharness';
import { answerApproval, fromRun, startRun, toUiItem } from 'rxharness/client';

// The main agent hands the work to a `worker` task, whose `bash` call asks for approval (bash asks by default).
const model = new ScriptedModel((request) => {
  const done = request.messages.some((m) => m.role === 'tool');
  if (request.sender?.agentName === 'worker') return done ? { text: 'The command printed its line.' } : { toolCalls: [{ name: 'bash', args: { command: 'echo approved over HTTP' } }] };
  return done ? { text: 'The worker is done.' } : { toolCalls: [{ name: 'task', args: { agent_name: 'worker', prompt: 'Run the command', description: 'Run it' } }] };
});
const workspace = mkdtempSync(join(tmpdir(), 'rxharness-http-'));
const engine = new HarnessEngine({ model, workspace });
engine.agents.add(defineAgent({ name: 'worker', description: 'Runs commands.', systemPrompt: 'You run commands.' }));
const server = createServer(runsHandler(engine, { basePath: '/api' }));
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
const api = `http://127.0.0.1:${(server.address() as { port: number }).port}/api`;

// A page would show the pending call with Approve / Reject buttons; here we approve it.
const { runId } = await startRun(api, { prompt: 'Run the command in a task' });
fromRun(api, runId).subscribe({
  next: ({ event }) => {
    const item = toUiItem(event);
    if (item?.kind === 'approval-pending') {
      console.log(`${item.taskAgentName} #${item.taskIndex} asks to run ${item.toolName}: ${JSON.stringify(item.args)}`);
      void answerApproval(api, runId, item, 'approve'); // by item.approvalId, with the task that asked
    }
    if (item?.kind === 'approval-decided') console.log(`decided: ${item.decision}`);
    if (item?.kind === 'tool-end' && item.toolName === 'bash') console.log(`bash printed: ${item.text.split('\n')[0]}`);
    if (item?.kind === 'result') console.log(`result: ${item.text}`);
  },
  complete: async () => {
    await engine.close();
    server.close();
    rmSync(workspace, { recursive: true, force: true });
  },
});
