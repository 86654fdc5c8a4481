import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FileSessionStore, HarnessEngine, ScriptedModel } from 'rxharness';

const workspace = await mkdtemp(join(tmpdir(), 'rxharness-resume-'));
let taskId = '';

// The child reports how much of its own history it sees; the main agent starts, then resumes it.
const model = new ScriptedModel((request) => {
  const last = request.messages.at(-1)!;
  if (request.sender?.agentName !== 'main') {
    return { text: `I see ${request.messages.filter((m) => m.role === 'user').length} prompt(s) in my session.` };
  }
  if (last.role === 'tool') {
    taskId = /<task_id>([^<]+)<\/task_id>/.exec(last.content)![1]!;
    return { text: /CDATA\[([^\]]*)/.exec(last.content)![1]! };
  }
  const args = { agent_name: 'explore', prompt: String(last.content), description: 'research', ...(taskId ? { task_id: taskId } : {}) };
  return { toolCalls: [{ name: 'task', args }] };
});

// Two engines, as before and after a restart, on the same file store.
const before = new HarnessEngine({ model, workspace, sessions: new FileSessionStore(workspace) });
console.log('first run:', (await before.call('Find the config loader', { sessionId: 'chat' })).text);
const after = new HarnessEngine({ model, workspace, sessions: new FileSessionStore(workspace) });
console.log('after a restart:', (await after.call('Now find its tests', { sessionId: 'chat' })).text);
console.log(`resumed ${taskId.slice(0, 13)}…; the chat session is in ${workspace}/.rxharness/sessions/chat.jsonl`);

// Only the session that started a task may resume it.
console.log('from another session:', (await after.call('Hijack it', { sessionId: 'other' })).text);
await rm(workspace, { recursive: true, force: true });
