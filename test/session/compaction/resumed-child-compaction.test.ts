/**
 * A delegated task whose session is compacted, then resumed (`task_id`) twice, each time
 * reading pages past its window again, in a `FileSessionStore` (sealed task sessions): every
 * resume loads the compacted, sealed session, compacts it again, and the archive keeps the
 * whole transcript of all three runs in order.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { HarnessEngine } from '../../../src/engine/harness-engine.js';
import type { AgentEvent } from '../../../src/events/agent-event.js';
import { FileSessionStore } from '../../../src/session/file-session-store.js';
import { defineAgent } from '../../../src/subagent/define-agent.js';
import { collect, own, wraps } from '../../support/collect-events.js';
import { conversationProblems } from '../../support/conversation.js';
import { FakeOpenAIServer, type RecordedRequest, type FakeReply } from '../../support/fake-openai-server.js';
import { parseTaskResult } from '../../support/lifecycle-script.js';
import { openAIModelFor } from '../../support/openai-model.js';
import { alternationProblems, isSummaryRequest, pageTool, SUMMARY } from '../../support/compaction-kit.js';
import { makeWorkspace, type TestWorkspace } from '../../support/tool-context.js';

const PAGES = 8;

/** The main agent delegates (or resumes the task its prompt names); the child fetches 8 pages of about 3 KB, then answers. */
function delegation(request: RecordedRequest): FakeReply {
  if (isSummaryRequest(request)) return { text: SUMMARY };
  const messages = request.body.messages ?? [];
  const lastUser = messages.findLastIndex((m) => m.role === 'user');
  const prompt = String(messages[lastUser]?.content ?? '').split('\n').at(-1)!;
  if (String(messages[0]?.content).startsWith('You read pages.')) {
    const read = messages.slice(lastUser).filter((m) => m.role === 'tool').length;
    return read < PAGES ? { toolCalls: [{ name: 'fetch_page', arguments: { text: `${prompt} page ${read + 1}` } }] } : { text: `read all of ${prompt}` };
  }
  if (messages.at(-1)?.role === 'tool') return { text: 'done' };
  const [, part, taskId] = /^(part \d+)(?: of (\S+))?$/.exec(prompt) ?? [];
  return { toolCalls: [{ name: 'task', arguments: { agent_name: 'reader', prompt: part ?? prompt, description: 'read pages', ...(taskId ? { task_id: taskId } : {}) } }] };
}

describe('a compacted child task resumed twice in a FileSessionStore', () => {
  let server: FakeOpenAIServer | undefined;
  let ws: TestWorkspace | undefined;
  afterEach(async () => {
    await server?.close();
    await ws?.cleanup();
  });

  it('loads its compacted sealed session, compacts it again, and archives all three runs whole', async () => {
    server = await FakeOpenAIServer.start({ contextSize: 8_192, handler: delegation });
    ws = await makeWorkspace('rxharness-resume-compaction-');
    const sessions = new FileSessionStore(ws.dir, { home: ws.home });
    const engine = new HarnessEngine({ model: openAIModelFor(server), workspace: ws.dir, homeDir: ws.home, tools: [pageTool], sessions });
    engine.agents.add(defineAgent({ name: 'reader', description: 'Reads pages.', systemPrompt: 'You read pages.', tools: ['fetch_page'] }));
    let taskId: string | undefined;
    for (const part of ['part 1', 'part 2', 'part 3']) {
      const events: AgentEvent[] = await collect(engine.stream(taskId ? `${part} of ${taskId}` : part, { sessionId: 'main' }));
      expect(events.at(-1), part).toMatchObject({ type: 'RunEnd', abnormal: false, text: 'done' });
      const result = parseTaskResult(own(events, 'ToolCallEnd').find((e) => e.toolName === 'task')!.text);
      expect(result, part).toMatchObject({ status: 'success', content: `read all of ${part}` });
      taskId ??= result.taskId;
      expect(result.taskId).toBe(taskId);
      expect(wraps(events).some((w) => w.event.type === 'Compaction'), part).toBe(true);
    }
    expect(server.requests.filter((r) => r.status !== 200)).toEqual([]);
    const stored = await sessions.load(taskId!);
    expect(conversationProblems(stored)).toEqual([]);
    expect(alternationProblems(stored)).toEqual([]);
    const archive = await sessions.loadArchive(taskId!);
    const prompts = archive.filter((m) => m.role === 'user').map((m) => String(m.content).split('\n').at(-1));
    expect(prompts).toEqual(['part 1', 'part 2', 'part 3']);
    expect(archive.filter((m) => m.role === 'tool')).toHaveLength(3 * PAGES);
  }, 60_000);
});
