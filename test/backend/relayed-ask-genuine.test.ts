import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { MAX_ASK_ARGS_BYTES } from '../../src/backend/relayed-ask.js';
import type { ApprovalRequest } from '../../src/permission/approval.js';
import { testAgent, testAgentPrompt } from '../support/agent-turns.js';
import { turnOf } from '../support/delegation-fixture.js';
import { steps, taskReply } from '../support/delegation-script.js';
import { HAS_REDIS } from './redis-server.js';
import { useScaleKits } from './scale-kit.js';

const AGENTS = [testAgent('explorer')];

/**
 * What a worker really asks passes the launcher's checks of relayed asks (its run's room,
 * the task it names, its args' bytes): it reaches the owning engine's handler, and the
 * answer reaches the worker. A call whose args are too large to relay is rejected on the
 * worker, in words for the model, without the launcher taking it for forged data.
 */
describe.skipIf(!HAS_REDIS)('approvals a worker really asks', () => {
  const scale = useScaleKits();
  const warnings: string[] = [];
  const onWarning = (w: Error): void => void warnings.push(w.message);
  afterEach(() => {
    process.off('warning', onWarning);
    warnings.length = 0;
  });

  it("of the job's task and of a task it delegates on the worker reach the handler under their own tasks, and the answers run both", async () => {
    const k = await scale.kit();
    // The sub-task's agent is one the worker finds by itself (in the shared home), as a deployment's would.
    mkdirSync(join(k.fixture.home, '.rxharness', 'agents'), { recursive: true });
    writeFileSync(join(k.fixture.home, '.rxharness', 'agents', 'digger.md'), `---\nname: digger\ndescription: Test agent digger.\n---\n${testAgentPrompt('digger')}\n`);
    k.fixture.route({
      main: steps(taskReply('explorer', 'explore', 'explore')),
      explorer: steps({ toolCalls: [{ name: 'bash', arguments: { command: 'echo explorer-ran >> ran.txt' } }] }, taskReply('digger', 'dig', 'dig')),
      digger: steps({ toolCalls: [{ name: 'bash', arguments: { command: 'echo digger-ran >> ran.txt' } }] }),
    });
    await k.worker({ maxDepth: 2 });
    const asked: ApprovalRequest[] = [];
    const engine = await k.engine({ distributeTasks: true, maxDepth: 2, approve: (request) => (asked.push(request), { decision: 'approve' }) }, AGENTS);
    process.on('warning', onWarning);
    await engine.call('go');
    expect(asked.map((r) => r.agentName)).toEqual(['explorer', 'digger']);
    const [explorer, digger] = asked as [ApprovalRequest, ApprovalRequest];
    // The explorer's job is a task of the engine; the digger's, delegated on the worker, is not.
    expect(engine.tasks.get(explorer.taskId!)?.agentName).toBe('explorer');
    expect(digger.taskId).toMatch(/^task_/);
    expect(digger.taskId).not.toBe(explorer.taskId);
    expect(engine.tasks.get(digger.taskId!)).toBeUndefined();
    expect(readFileSync(join(k.fixture.workspace.dir, 'ran.txt'), 'utf8')).toBe('explorer-ran\ndigger-ran\n');
    expect(warnings.filter((w) => w.includes('approvals channel'))).toEqual([]);
  });

  it(`with args under ${MAX_ASK_ARGS_BYTES} bytes reach the handler whole; larger ones are rejected on the worker, for the model to split, with no warning`, async () => {
    // Megabytes of arguments keep the one event loop of engine and worker busy for a while: not a dead worker.
    const k = await scale.kit(15_000);
    const small = 'a'.repeat(600 * 1024);
    const big = 'b'.repeat(MAX_ASK_ARGS_BYTES);
    // Writing a `.env` file asks by default.
    k.fixture.route({
      main: steps(taskReply('explorer', 'write', 'write')),
      explorer: steps(
        // In large fragments: 16 characters each (the default) is tens of thousands of deltas.
        { toolCalls: [{ name: 'write', arguments: { path: 'big.env', content: big } }], chunkSize: 256 * 1024 },
        { toolCalls: [{ name: 'write', arguments: { path: 'small.env', content: small } }], chunkSize: 256 * 1024 },
      ),
    });
    await k.worker();
    const asked: ApprovalRequest[] = [];
    const engine = await k.engine({ distributeTasks: true, approve: (request) => (asked.push(request), { decision: 'approve' }) }, AGENTS);
    process.on('warning', onWarning);
    await engine.call('go');
    expect(asked).toHaveLength(1);
    expect(asked[0]!.args).toEqual({ path: 'small.env', content: small });
    expect(statSync(join(k.fixture.workspace.dir, 'small.env')).size).toBe(small.length);
    expect(existsSync(join(k.fixture.workspace.dir, 'big.env'))).toBe(false);
    // The model read why, in words it can act on; the launcher warned of nothing.
    const bodies = k.fixture.server.requests.filter((r) => turnOf(r).agent === 'explorer').map((r) => JSON.stringify(r.body.messages));
    expect(bodies[1]).toMatch(/The write call was rejected: its arguments are \d+ bytes as JSON, more than the 1048576 .*smaller parts/);
    expect(warnings.filter((w) => w.includes('approvals channel'))).toEqual([]);
  });
});
