import { lastValueFrom, toArray } from 'rxjs';
import { describe, expect, it, vi } from 'vitest';
import type { AgentEvent, TaskWrapEvent } from '../../../src/events/agent-event.js';
import { isTaskWrap } from '../../../src/events/guards.js';
import { MAX_REMOTE_ERROR_CHARS } from '../../../src/delegation/a2a/a2a-launcher.js';
import type { HarnessEngineOptions } from '../../../src/engine/engine-options.js';
import { defineAgent } from '../../../src/subagent/define-agent.js';
import { closedAfterEach } from '../../support/closed-after-each.js';
import { startDelegationFixture, type DelegationFixture } from '../../support/delegation-fixture.js';
import { steps, taskReply } from '../../support/delegation-script.js';
import { artifact, startWireRemote, status, task, type StreamScript, type WireRemote } from './wire-remote.js';

const open = closedAfterEach<{ remote: WireRemote; fixture: DelegationFixture }>(['remote', 'fixture']);

/** An engine whose main agent gives one task to the `remote` agent at `open.remote`. */
async function engineFor(options: Partial<HarnessEngineOptions> = {}) {
  open.fixture = await startDelegationFixture({ main: steps(taskReply('remote', 'Do the job', 'Remote job')) });
  return open.fixture.engine({ a2a: { token: 'wire-token-123456' }, ...options }, [defineAgent({ name: 'remote', description: 'A remote agent', systemPrompt: '', a2a: open.remote!.cardUrl })]);
}

/** Every event of a run delegating to the remote; the child's own events checked to end once. */
async function delegate(options: Partial<HarnessEngineOptions> = {}): Promise<AgentEvent[]> {
  const engine = await engineFor(options);
  const events = await lastValueFrom(engine.stream('Delegate it').pipe(toArray()));
  await engine.close();
  const child = (events.filter(isTaskWrap) as TaskWrapEvent[]).map((w) => w.event);
  expect(child.filter((e) => e.type === 'RunEnd' || e.type === 'RunCancelled')).toHaveLength(1);
  expect(events.at(-1)).toMatchObject({ type: 'RunEnd', abnormal: false });
  await vi.waitFor(() => expect(open.remote!.open()).toBe(0), { timeout: 10_000 }); // the stream was dropped
  return child;
}

const cancels = (): number => open.remote!.methods.filter((m) => /cancel/i.test(m)).length;

describe('a hostile remote A2A agent, on the wire', () => {
  it.each([
    ['data:', 'data:text/event-stream,data%3A%20%7B%7D%0A%0A'],
    ['file:', 'file:///etc/passwd'],
    ['javascript:', 'javascript:alert(1)'],
  ])('a card naming a %s URL as its JSON-RPC endpoint: nothing is fetched there, the task fails naming the URL', async (_scheme, rpcUrl) => {
    open.remote = await startWireRemote(() => undefined, rpcUrl);
    const end = (await delegate()).at(-1)!;
    expect(end).toMatchObject({ type: 'RunEnd', abnormal: true, error: expect.stringContaining(`failed: ${rpcUrl} is not an http(s) URL`) });
    expect(open.remote.methods).toEqual([]);
  });

  it.each<[string, StreamScript, string]>([
    ['another task id', (send, res) => (send(task('working')), send(artifact('mine ')), send(artifact('theirs', false, 't2')), send(status('completed', '', 't2')), res.end()), 'task t2 (its task is t1)'],
    ['another context id', (send, res) => (send(task('working')), send(artifact('mine ')), send(status('completed', 'theirs', 't1', 'c2')), res.end()), 'context c2 (its task\'s is c1)'],
  ])('an update naming %s is not taken as the task\'s: the task fails saying so, and its own task is cancelled once', async (_what, script, named) => {
    open.remote = await startWireRemote(script);
    const child = await delegate();
    expect(child.at(-1)).toMatchObject({ type: 'RunEnd', abnormal: true, text: 'mine ', error: expect.stringContaining(`failed: it sent an update for ${named}: one stream carries one task`) });
    expect(JSON.stringify(child)).not.toContain('theirs');
    await vi.waitFor(() => expect(cancels()).toBe(1), { timeout: 10_000 });
  });

  it('a remote past the text limit has its task cancelled there too, once, and its stream dropped', async () => {
    // Held open after: only the client can end it.
    open.remote = await startWireRemote((send) => (send(task('working')), send(artifact('y'.repeat(600_000))), send(artifact('y'.repeat(600_000), true))));
    const end = (await delegate()).at(-1)!;
    expect(end).toMatchObject({ type: 'RunEnd', abnormal: true, error: expect.stringContaining('failed: it sent more than 1000000 characters of text') });
    await vi.waitFor(() => expect(cancels()).toBe(1), { timeout: 10_000 });
  });

  it('an error of megabytes in the stream: the task fails with its start, cut at MAX_REMOTE_ERROR_CHARS and saying so', async () => {
    open.remote = await startWireRemote((send, res, id) => {
      send(task('working'));
      res.write(`data: ${JSON.stringify({ jsonrpc: '2.0', id, error: { code: -32000, message: `it broke ${'x'.repeat(600_000)}`, data: { page: 'y'.repeat(600_000) } } })}\n\n`);
    });
    const end = (await delegate()).at(-1)!;
    expect(end).toMatchObject({ type: 'RunEnd', abnormal: true, error: expect.stringMatching(/failed: .*it broke x+\n\[\.\.\. \d+ characters truncated by rxharness \.\.\.\]$/) });
    expect((end as { error: string }).error.length).toBeLessThan(MAX_REMOTE_ERROR_CHARS + 100);
  });

  it('a task sent whole, its artifacts in it, and sent again with more: its answer is its artifacts, each character once', async () => {
    const withArtifacts = (state: string, text: string) => ({ ...task(state), artifacts: [{ artifactId: 'a', parts: [{ kind: 'text', text }] }] });
    open.remote = await startWireRemote((send, res) => (send(withArtifacts('working', 'half ')), send(withArtifacts('completed', 'half and whole')), res.end()));
    const child = await delegate();
    expect(child.at(-1)).toMatchObject({ type: 'RunEnd', abnormal: false, text: 'half and whole' });
    const deltas = child.flatMap((e) => (e.type === 'ReasonDelta' && e.kind === 'text' ? [e.text] : []));
    expect(deltas.join('')).toBe('half and whole');
  });

  it.each(['input-required', 'auth-required'])('a task left %s: it fails saying so, and is cancelled there (a child cannot answer), once', async (state) => {
    open.remote = await startWireRemote((send) => (send(task('working')), send(status(state, 'tell me more'))));
    const end = (await delegate()).at(-1)!;
    expect(end).toMatchObject({ type: 'RunEnd', abnormal: true, error: expect.stringContaining(`ended its task ${state}: tell me more`) });
    await vi.waitFor(() => expect(cancels()).toBe(1), { timeout: 10_000 });
  });

  it('cancelled while the remote has not named its task, which then arrives already completed: no tasks/cancel for an ended task', async () => {
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    let opened!: () => void;
    const streamOpened = new Promise<void>((resolve) => (opened = resolve));
    open.remote = await startWireRemote((send) => {
      opened();
      void released.then(() => send(task('completed')));
    });
    const engine = await engineFor();
    const running = engine.stream('Delegate it').subscribe();
    await streamOpened;
    running.unsubscribe();
    release();
    await vi.waitFor(() => expect(open.remote!.open()).toBe(0), { timeout: 10_000 }); // dropped at the update that named the task
    await engine.close();
    expect(open.remote.methods.filter((m) => /stream/i.test(m))).toHaveLength(1);
    expect(cancels()).toBe(0);
  });
});
