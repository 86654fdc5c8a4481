import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HarnessEngine, ScriptedModel } from 'rxharness';

const workspace = await mkdtemp(join(tmpdir(), 'rxharness-generate-'));
const homeDir = await mkdtemp(join(tmpdir(), 'rxharness-home-'));

// The main agent creates a "poet" agent, saves it, then delegates to it.
const model = new ScriptedModel((request) => {
  const last = request.messages.at(-1)!;
  if (request.sender?.agentName === 'poet') return { text: 'Rain on the tin roof / ...' };
  const step = request.messages.filter((m) => m.role === 'tool').length;
  if (step === 0) {
    const args = { name: 'poet', description: 'Writes haiku.', system_prompt: 'You write haiku.', tools: ['read'], save_to_file: true };
    return { toolCalls: [{ name: 'generate', args }] };
  }
  if (step === 1) return { toolCalls: [{ name: 'task', args: { agent_name: 'poet', prompt: 'A haiku about rain', description: 'haiku' } }] };
  return { text: `The poet says: ${/CDATA\[([^\]]*)/.exec(String(last.content))?.[1]}` };
});

// Saving under .rxharness/ asks, as a write there does: this handler approves every ask.
const first = new HarnessEngine({ model, workspace, homeDir, approve: () => ({ decision: 'approve' }) });
console.log((await first.call('Write a haiku about rain')).text);
console.log(await readFile(join(workspace, '.rxharness', 'agents', 'poet.md'), 'utf8'));

// A new engine on the same workspace discovers the saved definition.
const second = new HarnessEngine({ model, workspace, homeDir });
const poet = await second.agents.get('poet');
console.log(`rediscovered: ${poet?.name} (source: ${poet?.source}, tools: ${poet?.tools?.join(', ')})`);
await rm(workspace, { recursive: true, force: true });
await rm(homeDir, { recursive: true, force: true });
