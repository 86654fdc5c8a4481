import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HarnessEngine, ScriptedModel, type ApprovalHandler } from 'rxharness';

const workspace = mkdtempSync(join(tmpdir(), 'rxharness-approval-'));

// The model runs these commands one per step (bash asks by default), then answers.
const commands = ['echo hello', 'echo hello', 'printf bye'];
const model = new ScriptedModel((request) => {
  const results = request.messages.filter((m) => m.role === 'tool');
  const command = commands[results.length];
  if (command) return { toolCalls: [{ name: 'bash', args: { command } }] };
  return { text: `I read: ${results.at(-1)?.content}` };
});

// The human in the loop. A real one would ask in a UI and stop waiting when `signal` aborts.
const approve: ApprovalHandler = (request) => {
  console.log(`asked: ${request.agentName} wants ${request.toolName} ${JSON.stringify(request.args)}`);
  const { command } = request.args as { command: string };
  if (command === 'echo hello') return { decision: 'always' }; // this command, for the rest of the session
  return { decision: 'reject', comment: 'no printf today, use echo' };
};

const engine = new HarnessEngine({ model, workspace, approve });
engine.stream('Say hello twice, then bye', { sessionId: 'demo' }).subscribe({
  next(event) {
    if (event.type === 'HITLPending') console.log(`  HITLPending ${event.toolName}: ${event.reason}`);
    if (event.type === 'HITLDecided') console.log(`  HITLDecided ${event.decision}${event.comment ? `: ${event.comment}` : ''}`);
    if (event.type === 'ToolCallEnd') console.log(`  ToolCallEnd ${event.error === undefined ? event.text : `error: ${event.error}`}`);
    if (event.type === 'RunEnd') console.log(`RunEnd: ${event.text}`);
  },
  complete: () => rmSync(workspace, { recursive: true, force: true }),
});
