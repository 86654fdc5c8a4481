import { lastValueFrom, toArray } from 'rxjs';
import { afterEach, describe, expect, it } from 'vitest';
import type { AgentEvent, TaskWrapEvent } from '../../../src/events/agent-event.js';
import { isTaskWrap } from '../../../src/events/guards.js';
import { A2A_TOKEN_ENV } from '../../../src/delegation/a2a/remote-a2a-client.js';
import { defineAgent } from '../../../src/subagent/define-agent.js';
import { startDelegationFixture, type DelegationFixture } from '../../support/delegation-fixture.js';
import { steps, taskReply } from '../../support/delegation-script.js';
import { startServe, type ServeProcess } from './serve-process.js';

const TOKEN = 'remote-a2a-token-0123456789';

let local: DelegationFixture | undefined;
let remote: DelegationFixture | undefined;
let serve: ServeProcess | undefined;
afterEach(async () => {
  delete process.env[A2A_TOKEN_ENV];
  await serve?.stop();
  await local?.close();
  await remote?.close();
  local = remote = serve = undefined;
});

/** A second `rxharness serve` (its own fake model answering with `remoteRoute`), and a first engine whose `faraway` agent is that server. */
async function twoServers(remoteRoute: Parameters<typeof startDelegationFixture>[0]) {
  remote = await startDelegationFixture(remoteRoute);
  serve = await startServe({ baseURL: remote.server.baseURL, token: TOKEN, cwd: remote.workspace.dir, home: remote.home });
  process.env[A2A_TOKEN_ENV] = TOKEN;
  local = await startDelegationFixture({ main: steps(taskReply('faraway', 'Say hello from afar', 'Greet from the other server')) });
  const faraway = defineAgent({ name: 'faraway', description: 'An agent on another server', systemPrompt: '', a2a: `${serve.base}/.well-known/agent-card.json` });
  return local.engine({}, [faraway]);
}

describe('a remote A2A agent (a second rxharness serve process) as a subagent', () => {
  it("runs the task there: its events arrive wrapped, its answer is the task's result", async () => {
    const engine = await twoServers({ main: () => ({ text: 'Hello from afar' }) });
    // serve mounts the A2A routes behind its token; the card says so.
    expect((await fetch(`${serve!.base}/.well-known/agent-card.json`)).status).toBe(401);
    const card = (await (await fetch(`${serve!.base}/.well-known/agent-card.json`, { headers: { authorization: `Bearer ${TOKEN}` } })).json()) as Record<string, unknown>;
    expect(card).toMatchObject({ supportedInterfaces: [{ url: `${serve!.base}/a2a`, protocolVersion: '1.0' }, { protocolVersion: '0.3' }], securityRequirements: [{ schemes: { bearer: {} } }] });
    const events = await lastValueFrom(engine.stream('Greet someone').pipe(toArray()));
    await engine.close();
    const wrapped = events.filter(isTaskWrap) as TaskWrapEvent[];
    expect(wrapped.map((w) => w.event.type)).toEqual(expect.arrayContaining(['RunStart', 'ReasonDelta', 'RunEnd']));
    expect(wrapped[0]).toMatchObject({ taskAgentName: 'faraway', taskDescription: 'Greet from the other server', event: { type: 'RunStart', prompt: 'Say hello from afar' } });
    expect(wrapped.at(-1)!.event).toMatchObject({ type: 'RunEnd', abnormal: false, text: 'Hello from afar' });
    const answerDeltas = wrapped.flatMap((w) => (w.event.type === 'ReasonDelta' && w.event.kind === 'text' ? [w.event.text] : []));
    expect(answerDeltas.join('')).toBe('Hello from afar');
    expect(events.at(-1)).toMatchObject({ type: 'RunEnd', abnormal: false, text: expect.stringContaining('Hello from afar') });
    // The remote model saw the task's prompt; the local model got the remote answer back as the tool result.
    expect(remote!.server.requests[0]!.body.messages!.at(-1)).toMatchObject({ role: 'user', content: 'Say hello from afar' });
    expect(JSON.stringify(local!.requestsOf('main').at(-1)!.body.messages!.at(-1))).toContain('Hello from afar');
  }, 90_000);

  it('cancelling the parent cancels the remote task: its model request is aborted on the other server', async () => {
    const engine = await twoServers({ main: () => ({ hang: true }) });
    const seen: AgentEvent[] = [];
    let accepted: () => void = () => undefined;
    const remoteTaskStarted = new Promise<void>((resolve) => (accepted = resolve));
    const subscription = engine.stream('Greet someone').subscribe((event) => {
      seen.push(event);
      if (isTaskWrap(event) && event.event.type === 'RunStart') accepted(); // the remote agent has taken the task
    });
    await remoteTaskStarted;
    await remote!.server.waitForRequests(1, 30_000);
    subscription.unsubscribe();
    expect(await remote!.server.waitForClosed(0, 30_000)).toMatchObject({ aborted: true });
    await engine.close();
  }, 90_000);
});
