import { mkdir, mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ReActAgent } from '../../src/agent/react-agent.js';
import { PermissionPolicy } from '../../src/permission/index.js';
import { FileSessionStore } from '../../src/session/file-session-store.js';
import { createBuiltinTools } from '../../src/tools/builtin/index.js';
import { collect, own } from '../support/collect-events.js';
import { FakeOpenAIServer } from '../support/fake-openai-server.js';
import { openAIModelFor } from '../support/openai-model.js';

// FileSessionStore keeps every conversation under <workspace>/.rxharness/sessions/: what a
// human let one conversation read (a secret) must not reach another one unasked.

let server: FakeOpenAIServer | undefined;
const made: string[] = [];
afterEach(async () => {
  await server?.close();
  server = undefined;
  await Promise.all(made.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});

async function folder(prefix: string): Promise<string> {
  const dir = await realpath(await mkdtemp(join(tmpdir(), prefix)));
  made.push(dir);
  return dir;
}

type End = { toolName: string; text: string; error?: string };

describe('default asks: other conversations under .rxharness/sessions/', () => {
  it('read and grep of a session file ask, at any depth and in any case; definitions beside them do not', () => {
    const policy = new PermissionPolicy();
    for (const tool of ['read', 'grep']) {
      expect(policy.evaluate(tool, '.rxharness/sessions/alice.jsonl').action).toBe('ask');
      expect(policy.evaluate(tool, '.rxharness/sessions/alice.grants.jsonl').action).toBe('ask');
      expect(policy.evaluate(tool, '.rxharness/sessions/t1.task.json').action).toBe('ask');
      expect(policy.evaluate(tool, 'pkg/.RXHARNESS/Sessions/bob.archive.jsonl').action).toBe('ask');
      expect(policy.evaluate(tool, '.rxharness/agents/reviewer.md').action).toBe('allow');
      expect(policy.evaluate(tool, '.rxharness/skills/x/SKILL.md').action).toBe('allow');
    }
    expect(policy.evaluate('grep', '.rxharness/sessions').action).toBe('ask');
  });

  it('a secret approved in one conversation is neither found nor read from another', async () => {
    const ws = await folder('h6s-');
    const home = await folder('h6h-');
    await writeFile(join(ws, '.env'), 'API_KEY=sk-live-123456\n');
    await mkdir(join(ws, '.rxharness/agents'), { recursive: true });
    await writeFile(join(ws, '.rxharness/agents/helper.md'), '---\nname: helper\n---\nsk-live keys are rotated monthly\n');
    server = await FakeOpenAIServer.start({
      replies: [
        { toolCalls: [{ name: 'read', arguments: { path: '.env' } }] },
        { text: 'ok' },
        {
          toolCalls: [
            { name: 'grep', arguments: { pattern: 'sk-live' } },
            { name: 'grep', arguments: { pattern: 'sk-live', path: '.rxharness' } },
            { name: 'glob', arguments: { pattern: '**/*.jsonl' } },
            { name: 'read', arguments: { path: '.rxharness/sessions/alice.jsonl' } },
            { name: 'grep', arguments: { pattern: 'sk-live', path: '.rxharness/sessions/alice.jsonl' } },
          ],
        },
        { text: 'done' },
      ],
    });
    const sessions = new FileSessionStore(ws, { home });
    // Conversation alice: a human approves reading .env once.
    const alice = new ReActAgent({ model: openAIModelFor(server), workspace: ws, tools: createBuiltinTools(), sessions, approve: () => ({ decision: 'approve' }) });
    expect(own(await collect(alice.stream('check the key', { sessionId: 'alice' })), 'HITLPending')).toHaveLength(1);
    // Conversation bob, nobody to approve (an ask is refused).
    const bob = new ReActAgent({ model: openAIModelFor(server), workspace: ws, tools: createBuiltinTools(), sessions });
    const events = await collect(bob.stream('find sk-live', { sessionId: 'bob' }));
    const ends = own(events, 'ToolCallEnd') as End[];
    // The searches skip the transcripts quietly (the note counts .env alone) and still search the definitions.
    expect(ends[0]!.text).toBe(
      '.rxharness/agents/helper.md:4: sk-live keys are rotated monthly\n\n' +
        '(1 file needing approval was left out; to search one, give it as path, which asks for approval.)',
    );
    expect(ends[1]!.text).toBe('.rxharness/agents/helper.md:4: sk-live keys are rotated monthly');
    expect(ends[2]!.text).toMatch(/^No files match/);
    // Named on their own, the transcript asks (refused here), and nothing of it is shown.
    for (const end of ends.slice(3)) {
      expect(end.error).toMatch(/approval/);
      expect(end.text).not.toContain('sk-live-123456');
    }
    expect(own(events, 'HITLPending')).toHaveLength(2);
  });
});
