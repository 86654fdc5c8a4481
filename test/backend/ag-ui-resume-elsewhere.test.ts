/**
 * Two instances on one Redis behind a load balancer (docs/scaling.md): an AG-UI thread's run
 * waits for an approval at A, and the thread's next request lands on B. B used to answer
 * `409 session is busy` (the waiting run lived only in A's memory) while A's run held the
 * thread until its wait timed out. B now continues it through the shared runs registry.
 */
import { createServer, type Server } from 'node:http';
import { describe, expect, it } from 'vitest';
import { agUiHandler, type AgUiHandlerOptions } from '../../src/protocols/ag-ui/ag-ui-handler.js';
import type { HarnessEngine } from '../../src/engine/harness-engine.js';
import { steps } from '../support/delegation-script.js';
import type { FakeReply } from '../support/fake-openai-server.js';
import { listen } from '../http/http-kit.js';
import { outcomeOf, postRunAgentInput, user, type AgUiAnswer } from '../protocols/ag-ui/ag-ui-requests.js';
import { HAS_REDIS } from './redis-server.js';
import { useScaleKits, waitFor } from './scale-kit.js';

const BASH = (command: string) => ({ toolCalls: [{ name: 'bash', arguments: { command } }] });
const base = { threadId: 't1', messages: [user('go')], tools: [], context: [], state: {}, forwardedProps: {} };
const approve = (interruptId: string) => [{ interruptId, status: 'resolved', payload: { decision: 'approve' } }];
const interruptOf = (answer: AgUiAnswer): string => (outcomeOf(answer)!['interrupts'] as Array<{ id: string }>)[0]!.id;

describe.skipIf(!HAS_REDIS)('agUiHandler: a thread whose run waits at another instance', () => {
  const scale = useScaleKits();
  const servers: Server[] = [];

  async function serveOn(engine: HarnessEngine, options: AgUiHandlerOptions = {}): Promise<string> {
    const handle = agUiHandler(engine, { path: '/ag-ui', ...options });
    const server = createServer((req, res) => void (handle(req, res) || res.writeHead(404).end()));
    servers.push(server);
    return (await listen(server)) + '/ag-ui';
  }

  async function twoInstances(route: readonly FakeReply[], aOptions: AgUiHandlerOptions = {}) {
    const k = await scale.kit(30_000);
    k.fixture.route({ main: steps(...route) });
    const A = await k.engine();
    const B = await k.engine();
    return { k, A, B, a: await serveOn(A, aOptions), b: await serveOn(B) };
  }

  const closeServers = (): void => {
    for (const s of servers.splice(0)) {
      s.closeAllConnections();
      s.close();
    }
  };

  it('applies a resume sent to B to the approval waiting at A once, and streams the continuation to its end at B', async () => {
    const { k, A, B, a, b } = await twoInstances([BASH('echo approved-run'), { text: 'done' }]);
    try {
      const first = await postRunAgentInput(a, { ...base, runId: 'r1' });
      const interruptId = interruptOf(first);
      const runId = A.runs.list()[0]!.runId;
      const second = await postRunAgentInput(b, { ...base, runId: 'r2', resume: approve(interruptId) });
      expect(second.status).toBe(200);
      expect(second.events[0]).toMatchObject({ type: 'RUN_STARTED', threadId: 't1', runId: 'r2' });
      expect(outcomeOf(second)).toEqual({}); // RUN_FINISHED, no interrupt: the run ended
      expect(JSON.stringify(second.events.filter((e) => e.type === 'TOOL_CALL_RESULT'))).toContain('approved-run');
      expect(second.events.filter((e) => e.type === 'TEXT_MESSAGE_CONTENT').map((e) => e['delta']).join('')).toBe('done');
      await waitFor(() => A.runs.get(runId)?.state === 'done');
      expect(k.fixture.requestsOf('main')).toHaveLength(2);
      expect(B.runs.list().filter((r) => r.runId !== runId)).toEqual([]); // no refused run left at B
    } finally {
      closeServers();
    }
  }, 60_000);

  it('refuses at B, as A would, a resume naming no waiting interrupt: the approval still waits at A', async () => {
    const { A, a, b } = await twoInstances([BASH('echo x'), { text: 'done' }]);
    try {
      const interruptId = interruptOf(await postRunAgentInput(a, { ...base, runId: 'r1' }));
      const runId = A.runs.list()[0]!.runId;
      const messages = [user('go'), { id: 'a-1', role: 'assistant', content: 'asking' }];
      const forged = await postRunAgentInput(b, { ...base, messages, runId: 'r2', resume: approve('approval_forged') });
      expect(forged.status).toBe(400);
      expect(forged.text).toMatch(/last message must be a user message/);
      expect(A.runs.get(runId)?.state).toBe('running');
      expect(A.runs.pendingApprovals(runId).map((p) => p.approvalId)).toEqual([interruptId]);
    } finally {
      closeServers();
    }
  }, 60_000);

  it('starts a new turn sent to B in place of the run waiting at A, as a new turn cancels a waiting run at A', async () => {
    const { A, a, b } = await twoInstances([BASH('echo x'), { text: 'done' }]);
    try {
      await postRunAgentInput(a, { ...base, runId: 'r1' });
      const runId = A.runs.list()[0]!.runId;
      const next = await postRunAgentInput(b, { ...base, messages: [user('go'), user('other')], runId: 'r2' });
      expect(next.status).toBe(200);
      expect(outcomeOf(next)?.['type']).toBe('interrupt'); // the new turn's own approval, asked at B
      expect(A.runs.get(runId)?.state).toBe('cancelled');
    } finally {
      closeServers();
    }
  }, 60_000);

  it('leaves to B the run it continued: the wait A timed out does not cancel it', async () => {
    const { A, a, b } = await twoInstances([BASH('echo one'), BASH('echo two'), { text: 'done' }], { clientWaitMs: 1_000 });
    try {
      const firstId = interruptOf(await postRunAgentInput(a, { ...base, runId: 'r1' }));
      const runId = A.runs.list()[0]!.runId;
      const second = await postRunAgentInput(b, { ...base, runId: 'r2', resume: approve(firstId) });
      const secondId = interruptOf(second);
      // Past A's wait for its client: the run now waits for B's.
      await new Promise((resolve) => setTimeout(resolve, 1_500));
      expect(A.runs.get(runId)?.state).toBe('running');
      const third = await postRunAgentInput(b, { ...base, runId: 'r3', resume: approve(secondId) });
      expect(outcomeOf(third)).toEqual({});
    } finally {
      closeServers();
    }
  }, 60_000);

  it('takes back at A a resume of the approval B showed: A drops its stale state of the run', async () => {
    const { A, a, b } = await twoInstances([BASH('echo one'), BASH('echo two'), { text: 'done' }]);
    try {
      const firstId = interruptOf(await postRunAgentInput(a, { ...base, runId: 'r1' }));
      const runId = A.runs.list()[0]!.runId;
      const secondId = interruptOf(await postRunAgentInput(b, { ...base, runId: 'r2', resume: approve(firstId) }));
      const third = await postRunAgentInput(a, { ...base, runId: 'r3', resume: approve(secondId) });
      expect(third.status).toBe(200);
      expect(outcomeOf(third)).toEqual({});
      expect(JSON.stringify(third.events.filter((e) => e.type === 'TOOL_CALL_RESULT'))).toContain('two');
      expect(A.runs.get(runId)?.state).toBe('done');
    } finally {
      closeServers();
    }
  }, 60_000);

  it('leaves alone a run of the same engine started outside AG-UI on the thread\'s session: a new turn is 409, the run waits on', async () => {
    const { A, a } = await twoInstances([BASH('echo x'), { text: 'done' }]);
    try {
      const run = await A.start('go', { sessionId: 't1' });
      await waitFor(() => A.runs.pendingApprovals(run.runId).length === 1);
      const refused = await postRunAgentInput(a, { ...base, runId: 'r1' });
      expect(refused.status).toBe(409);
      expect(A.runs.get(run.runId)?.state).toBe('running');
      expect(A.runs.pendingApprovals(run.runId)).toHaveLength(1);
      run.cancel();
    } finally {
      closeServers();
    }
  }, 60_000);

  it('explains a 409 at B for a thread whose run waits at A for a frontend tool: sticky routing', async () => {
    const confirm = { name: 'confirm_plan', description: 'Asks the user to confirm', parameters: { type: 'object', properties: {} } };
    const { a, b } = await twoInstances([{ toolCalls: [{ name: 'confirm_plan', arguments: {} }] }, { text: 'done' }], {});
    try {
      const first = await postRunAgentInput(a, { ...base, tools: [confirm], runId: 'r1' });
      const [callId] = outcomeOf(first)!['pendingToolCallIds'] as string[] ?? [];
      expect(callId).toBeDefined();
      const messages = [user('go'), { id: 'tool-1', role: 'tool', toolCallId: callId, content: 'ok' }, user('and then')];
      const refused = await postRunAgentInput(b, { ...base, messages, tools: [confirm], runId: 'r2' });
      expect(refused.status).toBe(409);
      expect(JSON.parse(refused.text)).toEqual({ error: expect.stringMatching(/^session "t1" is busy: .*another instance.*sticky routing by threadId, see docs\/scaling\.md/) });
    } finally {
      closeServers();
    }
  }, 60_000);
});
