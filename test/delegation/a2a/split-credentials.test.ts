import { lastValueFrom, toArray } from 'rxjs';
import { afterEach, describe, expect, it } from 'vitest';
import type { AgentEvent, ReasonDeltaEvent, TaskWrapEvent } from '../../../src/events/agent-event.js';
import { isTaskWrap } from '../../../src/events/guards.js';
import { A2A_TOKEN_ENV, MIN_CREDENTIAL_LENGTH } from '../../../src/delegation/a2a/remote-credentials.js';
import { defineAgent } from '../../../src/subagent/define-agent.js';
import { closedAfterEach } from '../../support/closed-after-each.js';
import { startDelegationFixture, type DelegationFixture } from '../../support/delegation-fixture.js';
import { multitaskReply, steps, type TaskTuple } from '../../support/delegation-script.js';
import { startScriptedRemote, type ScriptedRemote } from './scripted-remote.js';

const TOKEN = 'sk-remote-9f3a';
const open = closedAfterEach<{ remote: ScriptedRemote; fixture: DelegationFixture }>(['remote', 'fixture']);
afterEach(() => {
  delete process.env[A2A_TOKEN_ENV];
});

/** Cuts into the token: every index (two pieces), and every pair of indices (three pieces). */
function everyCut(): string[] {
  const cuts: string[] = [];
  for (let i = 1; i < TOKEN.length; i++) {
    cuts.push(`${i}`);
    for (let j = i + 1; j < TOKEN.length; j++) cuts.push(`${i} ${j}`);
  }
  return cuts;
}

/** A main agent giving the `echo` remote one task per prompt (all in one multitask); every event, by task. */
async function echoTasks(prompts: readonly string[]): Promise<{ events: AgentEvent[]; byTask: Map<string, AgentEvent[]> }> {
  process.env[A2A_TOKEN_ENV] = TOKEN;
  open.remote = await startScriptedRemote('echo-split');
  const tuples: TaskTuple[] = prompts.map((prompt, i) => [i + 1, 'echo', prompt, prompt]);
  open.fixture = await startDelegationFixture({ main: steps(multitaskReply(tuples)) });
  const engine = open.fixture.engine({}, [defineAgent({ name: 'echo', description: 'Echoes', systemPrompt: '', a2a: open.remote.cardUrl })]);
  const events = await lastValueFrom(engine.stream('Delegate it').pipe(toArray()));
  await engine.close();
  const byTask = new Map<string, AgentEvent[]>();
  for (const wrap of events.filter(isTaskWrap) as TaskWrapEvent[]) byTask.set(wrap.taskDescription, [...(byTask.get(wrap.taskDescription) ?? []), wrap.event]);
  return { events, byTask };
}

/** Every way a reader may join a task's deltas: its answer, its progress (with and without newlines), both in order. */
function views(child: readonly AgentEvent[]): string[] {
  const deltas = child.filter((e): e is ReasonDeltaEvent => e.type === 'ReasonDelta');
  const of = (kind: string) => deltas.filter((d) => d.kind === kind).map((d) => d.text).join('');
  const all = deltas.map((d) => d.text).join('');
  return [of('text'), of('thinking'), of('thinking').replaceAll('\n', ''), all, all.replaceAll('\n', '')];
}

/** Nothing anywhere holds the token: no event, no view of the deltas, no request of the main agent's model. */
function expectNoToken(events: readonly AgentEvent[], byTask: Map<string, AgentEvent[]>): void {
  for (const [task, child] of byTask) for (const view of views(child)) expect(view, task).not.toContain(TOKEN);
  expect(JSON.stringify(events)).not.toContain(TOKEN);
  expect(JSON.stringify(open.fixture!.requestsOf('main').map((r) => r.body.messages))).not.toContain(TOKEN);
}

describe('a remote A2A agent echoing its token split across forwarded deltas', () => {
  it('in artifact chunks, cut at every index into two pieces and at every pair of indices into three: never forwarded whole', async () => {
    const { events, byTask } = await echoTasks(everyCut().map((cut) => `artifact ${cut}`));
    expect(byTask.size).toBe(everyCut().length);
    for (const [task, child] of byTask) {
      const deltas = child.filter((e) => e.type === 'ReasonDelta');
      // The first chunk went out on its own (the first delta of a task goes at once): the echo really was split.
      expect(deltas.length, task).toBeGreaterThanOrEqual(2);
      expect(views(child)[0], task).toBe('echo: [redacted] end');
      expect(child.at(-1), task).toMatchObject({ type: 'RunEnd', abnormal: false, text: 'echo: [redacted] end' });
    }
    expectNoToken(events, byTask);
  });

  it('in status messages, cut at every index into two and every pair into three: no view of the progress holds it', async () => {
    const { events, byTask } = await echoTasks(everyCut().map((cut) => `status ${cut}`));
    for (const [task, child] of byTask) {
      // Two messages: the first goes at once, the second after it, so the token was split across them (of three, the middle one may be superseded).
      if (/^status \d+$/.test(task)) expect(views(child)[1], task).toMatch(/^echo: .*\n.*\[redacted\] end\n$/);
    }
    expectNoToken(events, byTask);
  });

  it('in an error body written in pieces: the task fails naming the agent, the token redacted', async () => {
    const cuts = ['1', '7', `${TOKEN.length - 1}`, '3 9'];
    const { events, byTask } = await echoTasks(cuts.map((cut) => `error ${cut}`));
    for (const [task, child] of byTask) expect(child.at(-1), task).toMatchObject({ type: 'RunEnd', abnormal: true, error: expect.stringMatching(/^the remote A2A agent echo \(.*\) failed: .*500.*echo: \[redacted\] end/) });
    expectNoToken(events, byTask);
  });
});

describe(`credentials under ${MIN_CREDENTIAL_LENGTH} characters`, () => {
  it.each([
    ['RXHARNESS_A2A_TOKEN', 'tiny', {}, 'RXHARNESS_A2A_TOKEN is 4 characters long'],
    ['a2a.headers, a short value', undefined, { headers: () => ({ 'x-api-key': 'abc' }) }, 'the value a2a.headers gave for x-api-key is 3 characters long'],
    ['a2a.headers, a short bearer token', undefined, { headers: () => ({ authorization: 'Bearer abcd' }) }, 'the credentials in the value a2a.headers gave for authorization is 4 characters long'],
  ])('%s: refused before anything is sent, the task failing with a message that says why and what to do', async (_, environment, a2a, why) => {
    if (environment !== undefined) process.env[A2A_TOKEN_ENV] = environment;
    open.remote = await startScriptedRemote('answer');
    open.fixture = await startDelegationFixture({ main: steps(multitaskReply([[1, 'short', 'Job', 'Job']])) });
    const engine = open.fixture.engine({ a2a }, [defineAgent({ name: 'short', description: 'Short', systemPrompt: '', a2a: open.remote.cardUrl })]);
    const events = await lastValueFrom(engine.stream('Delegate it').pipe(toArray()));
    await engine.close();
    const child = (events.filter(isTaskWrap) as TaskWrapEvent[]).map((w) => w.event);
    expect(child.at(-1)).toMatchObject({
      type: 'RunEnd',
      abnormal: true,
      error: `the remote A2A agent short (${open.remote.cardUrl}) failed: ${why}: credentials under 8 characters are refused, since redacting so short a value from all a remote agent sends back would garble ordinary text; use a longer one`,
    });
    expect(open.remote.requests).toEqual([]);
  });

  it('a2a.token is refused when the engine is made', async () => {
    open.fixture = await startDelegationFixture({ main: steps() });
    expect(() => open.fixture!.engine({ a2a: { token: 'abcdefg' } }, [])).toThrow(
      new TypeError('HarnessEngine: `a2a.token` is 7 characters long: credentials under 8 characters are refused, since redacting so short a value from all a remote agent sends back would garble ordinary text; use a longer one'),
    );
    await open.fixture.engine({ a2a: { token: 'abcdefgh' } }, []).close(); // 8 characters: taken
  });
});
