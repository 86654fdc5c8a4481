import { afterEach, describe, expect, it } from 'vitest';
import { HAS_REDIS } from '../backend/redis-server.js';
import { eventsOf, useScaleKits, type ScaleKit } from '../backend/scale-kit.js';
import { steps, taskReply } from '../support/delegation-script.js';
import { turnOf } from '../support/delegation-fixture.js';
import type { RecordedRequest } from '../support/fake-openai-server.js';
import { DEADLINE_MS } from './running-command.js';
import { spawnSourceCli, type CliProcess } from './spawn-cli.js';

// `rxharness worker --pass-env NAME` end to end: an engine delegates a task over a real Redis
// to a worker process (started from the sources, NAME in its environment), whose child runs
// a bash command printing the variables. The worker's own commands must get NAME; what is not
// passed (the model's key by default, the worker's Redis URL always) must not reach them.

/** The key the worker process holds: its model's key, withheld from commands unless passed. */
const KEY = 'sk-worker-key-delegated-42';
/** The model id the worker sends, so a child's request is known to come from the worker process. */
const WORKER_MODEL = 'worker-process-model';
/** Long enough that a loaded machine never makes the live worker look dead. */
const LIVE_STALL_MS = 30_000;
const COMMAND = ['OPENAI_API_KEY', 'RXHARNESS_REDIS_URL', 'RXH_PLAIN'].map((name) => `echo "${name}=\${${name}:--}"`).join('; ');

describe.skipIf(!HAS_REDIS)("rxharness worker --pass-env NAME: a delegated task's commands", () => {
  const scale = useScaleKits();
  let worker: CliProcess | undefined;
  afterEach(() => {
    if (worker && worker.child.exitCode === null && worker.child.signalCode === null) worker.child.kill('SIGKILL');
    worker = undefined;
  });

  /**
   * Starts a worker process with `flags` (its Redis URL from the environment, as a deployment
   * would hold a password there), runs one delegating prompt on an engine, stops the worker;
   * the child's bash output as its model saw it, and the worker's stderr.
   */
  async function delegatedOutput(kit: ScaleKit, flags: readonly string[]): Promise<{ output: string; stderr: string }> {
    kit.fixture.route({
      main: steps(taskReply('bash', 'print the variables')),
      // The built-in `bash` agent (both sides have it): run the command, then say what it printed.
      '*': (turn) => (turn.step === 1 ? { toolCalls: [{ name: 'bash', arguments: { command: COMMAND } }] } : { text: `child saw: ${turn.toolResults.at(-1) ?? ''}` }),
    });
    const args = ['worker', '--prefix', kit.prefix, '--model', WORKER_MODEL, '--base-url', kit.fixture.server.baseURL, '--workspace', kit.fixture.workspace.dir, ...flags];
    const env = { OPENAI_API_KEY: KEY, RXHARNESS_REDIS_URL: scale.redis.url, RXH_PLAIN: 'plain-value' };
    worker = spawnSourceCli(args, { home: kit.fixture.home, cwd: kit.fixture.workspace.dir, env });
    await worker.waitForStdout('pulling tasks');
    const engine = await kit.engine({ distributeTasks: true, approve: () => ({ decision: 'approve' }) });
    const events = await eventsOf(engine.stream('go'));
    worker.child.kill('SIGTERM');
    const ended = await worker.exited;
    expect(ended.code, ended.stderr).toBe(0);
    const end = events.at(-1)!;
    expect(end.type === 'RunEnd' && end.text, JSON.stringify(end)).toContain('child saw: ');
    const children = kit.fixture.server.requests.filter((r) => turnOf(r).agent !== 'main');
    // Both of the child's requests came from the worker process, not from the engine here.
    expect(children.map((r) => r.body.model)).toEqual([WORKER_MODEL, WORKER_MODEL]);
    return { output: toolResult(children[1]!), stderr: ended.stderr };
  }

  it('gives them NAME; the Redis URL it reads stays out', { timeout: 3 * DEADLINE_MS }, async () => {
    const kit = await scale.kit(LIVE_STALL_MS);
    const { output, stderr } = await delegatedOutput(kit, ['--pass-env', 'OPENAI_API_KEY']);
    expect(output).toContain(`OPENAI_API_KEY=${KEY}\n`);
    expect(output).toContain('RXHARNESS_REDIS_URL=-\n');
    expect(output).not.toContain(scale.redis.url);
    expect(output).toContain('RXH_PLAIN=plain-value\n');
    expect(stderr).not.toContain('--pass-env');
  });

  it('without it, they lack the key the worker holds (the default), but get the other variables', { timeout: 3 * DEADLINE_MS }, async () => {
    const kit = await scale.kit(LIVE_STALL_MS);
    const { output } = await delegatedOutput(kit, []);
    expect(output).toContain('OPENAI_API_KEY=-\n');
    expect(output).not.toContain(KEY);
    expect(output).toContain('RXHARNESS_REDIS_URL=-\n');
    expect(output).toContain('RXH_PLAIN=plain-value\n');
  });
});

/** The bash result the child's second request carried back to its model. */
function toolResult(request: RecordedRequest): string {
  const results = turnOf(request).toolResults;
  expect(results, 'the child sent its command output back').toHaveLength(1);
  return String(results[0]);
}
