import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defineAgent, HarnessEngine, ScriptedModel, unwrapTaskEvents, type ScriptedReply } from 'rxharness';

const workspace = mkdtempSync(join(tmpdir(), 'rxharness-layers-'));
mkdirSync(join(workspace, 'private'));
writeFileSync(join(workspace, 'private', 'notes.txt'), 'private notes\n');

// Each agent plays its own calls, one per step, then says it is done.
const script: Record<string, ScriptedReply[]> = {
  main: [
    { toolCalls: [{ name: 'task', args: { agent_name: 'cleaner', prompt: 'Clean up', description: 'clean' } }] },
    { toolCalls: [{ name: 'task', args: { agent_name: 'reader', prompt: 'Read the notes', description: 'read' } }] },
    { toolCalls: [{ name: 'read', args: { path: 'private/notes.txt' } }] },
  ],
  cleaner: [
    { toolCalls: [{ name: 'bash', args: { command: 'rm -rf build' } }] },
    { toolCalls: [{ name: 'bash', args: { command: 'echo cleaned' } }] },
  ],
  reader: [{ toolCalls: [{ name: 'read', args: { path: 'private/notes.txt' } }] }],
};
const model = new ScriptedModel((request) => {
  const agent = request.sender?.agentName ?? 'main';
  const done = request.messages.filter((m) => m.role === 'tool').length;
  return script[agent]![done] ?? { text: `${agent} is done` };
});

const engine = new HarnessEngine({
  model,
  workspace,
  // Engine rules hold for every agent of the tree; nobody may run `rm`.
  permissionRules: [{ tool: 'bash', action: 'deny', pattern: 'rm *' }],
});
// Its own allow (priority 100) turns the default ask for bash into allow, but cannot lift the engine's deny.
engine.agents.add(defineAgent({
  name: 'cleaner',
  description: 'Cleans build output.',
  systemPrompt: 'You are cleaner. Remove build output.',
  tools: ['bash'],
  permissionRules: [{ tool: 'bash', action: 'allow', priority: 100 }],
}));
// Its own deny narrows this agent only (and every agent it would delegate to).
engine.agents.add(defineAgent({
  name: 'reader',
  description: 'Reads files.',
  systemPrompt: 'You are reader. Read what you are asked to.',
  tools: ['read'],
  permissionRules: [{ tool: 'read', action: 'deny', pattern: 'private/**' }],
}));

const calls = new Map<string, string>();
engine
  .stream('Tidy up and read the notes')
  .pipe(unwrapTaskEvents())
  .subscribe({
    next({ event }) {
      if (event.type === 'ToolCallStart') calls.set(event.callId, `${event.toolName} ${JSON.stringify(event.args)}`);
      if (event.type !== 'ToolCallEnd' || event.toolName === 'task') return;
      const outcome = event.error === undefined ? `ran: ${event.text.trim().split('\n')[0]}` : `refused: ${event.error}`;
      console.log(`[${event.agentName}] ${calls.get(event.callId)}\n  ${outcome}`);
    },
    complete: () => rmSync(workspace, { recursive: true, force: true }),
  });
