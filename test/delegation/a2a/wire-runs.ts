/**
 * The two ways the A2A tests of this folder run a task against a {@link WireRemote} writing a
 * script: through the launcher alone ({@link WireRuns.remoteRun}), or delegated by an engine's
 * main agent ({@link WireRuns.childOf}). Each waits until the remote has no connection open
 * (nothing is left hanging); the remote and fixture are closed after each test.
 *
 * @module
 */
import { lastValueFrom, toArray } from 'rxjs';
import { expect, vi } from 'vitest';
import { a2aLauncher } from '../../../src/delegation/a2a/a2a-launcher.js';
import type { RemoteA2AOptions } from '../../../src/delegation/a2a/remote-a2a-options.js';
import type { ChildRun } from '../../../src/delegation/run-child.js';
import type { AgentEvent, TaskWrapEvent } from '../../../src/events/agent-event.js';
import { isTaskWrap } from '../../../src/events/guards.js';
import { defineAgent } from '../../../src/subagent/define-agent.js';
import { closedAfterEach } from '../../support/closed-after-each.js';
import { startDelegationFixture, type DelegationFixture } from '../../support/delegation-fixture.js';
import { steps, taskReply } from '../../support/delegation-script.js';
import { startWireRemote, type StreamScript, type WireRemote } from './wire-remote.js';

// What the launcher reads of its child: the agent's name, the prompt, the task id.
const child = { agent: { name: 'remote' }, prompt: 'Do the job', taskId: 'task_1' } as unknown as ChildRun;

/** The runs of the current test; see {@link wireRunsPerTest}. */
export interface WireRuns {
  /** The events of one remote task run with `options` by the launcher, against a remote writing `script`. */
  remoteRun(options: RemoteA2AOptions, script: StreamScript): Promise<AgentEvent[]>;
  /** The remote child's events, when an engine's main agent delegates one task to a remote writing `script`. */
  childOf(script: StreamScript): Promise<AgentEvent[]>;
  /** How many cancel calls the test's remote got. */
  cancels(): number;
  /** Closes the test's remote now, so that the next run starts a fresh one. */
  closeRemote(): Promise<void>;
}

/** Registers the `afterEach` closing the test's remote and fixture; call at the top of a file. */
export function wireRunsPerTest(): WireRuns {
  const open = closedAfterEach<{ remote: WireRemote; fixture: DelegationFixture }>(['remote', 'fixture']);
  const drained = () => vi.waitFor(() => expect(open.remote!.open()).toBe(0), { timeout: 10_000 });
  return {
    async remoteRun(options, script) {
      open.remote = await startWireRemote(script);
      const events = await lastValueFrom(a2aLauncher({ cardUrl: open.remote.cardUrl }, options).run$(child, true).pipe(toArray()));
      await drained();
      return events;
    },
    async childOf(script) {
      open.remote = await startWireRemote(script);
      open.fixture = await startDelegationFixture({ main: steps(taskReply('remote', 'Do the job', 'Remote job')) });
      const engine = open.fixture.engine({}, [defineAgent({ name: 'remote', description: 'A remote agent', systemPrompt: '', a2a: open.remote.cardUrl })]);
      const events = await lastValueFrom(engine.stream('Delegate it').pipe(toArray()));
      await engine.close();
      await drained();
      return (events.filter(isTaskWrap) as TaskWrapEvent[]).map((w) => w.event);
    },
    cancels: () => open.remote!.methods.filter((m) => /cancel/i.test(m)).length,
    async closeRemote() {
      await open.remote!.close();
      open.remote = undefined;
    },
  };
}
