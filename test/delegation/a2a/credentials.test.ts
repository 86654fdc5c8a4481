import { lastValueFrom, toArray } from 'rxjs';
import { afterEach, describe, expect, it } from 'vitest';
import type { AgentEvent, TaskWrapEvent } from '../../../src/events/agent-event.js';
import { isTaskWrap } from '../../../src/events/guards.js';
import type { HarnessEngineOptions } from '../../../src/engine/engine-options.js';
import { A2A_TOKEN_ENV } from '../../../src/delegation/a2a/remote-credentials.js';
import type { RemoteA2ARequest } from '../../../src/delegation/a2a/remote-a2a-options.js';
import { defineAgent } from '../../../src/subagent/define-agent.js';
import { startDelegationFixture, type DelegationFixture } from '../../support/delegation-fixture.js';
import type { FakeReply } from '../../support/fake-openai-server.js';
import { multitaskReply, steps, taskReply } from '../../support/delegation-script.js';
import { startScriptedRemote, type RemoteScript, type ScriptedRemote } from './scripted-remote.js';

let fixture: DelegationFixture | undefined;
const remotes: ScriptedRemote[] = [];
afterEach(async () => {
  delete process.env[A2A_TOKEN_ENV];
  for (const remote of remotes.splice(0)) await remote.close();
  await fixture?.close();
  fixture = undefined;
});

async function remote(script: RemoteScript): Promise<ScriptedRemote> {
  const started = await startScriptedRemote(script);
  remotes.push(started);
  return started;
}

/** Runs a main agent whose first step is `first`, with the remote agents `agents` (name → card URL); every event. */
async function run(first: FakeReply, agents: Readonly<Record<string, string>>, options: Partial<HarnessEngineOptions> = {}): Promise<AgentEvent[]> {
  fixture = await startDelegationFixture({ main: steps(first) });
  const definitions = Object.entries(agents).map(([name, a2a]) => defineAgent({ name, description: `The remote ${name}`, systemPrompt: '', a2a }));
  const engine = fixture.engine(options, definitions);
  try {
    return await lastValueFrom(engine.stream('Delegate it').pipe(toArray()));
  } finally {
    await engine.close();
  }
}

const childEnds = (events: readonly AgentEvent[]) =>
  (events.filter(isTaskWrap) as TaskWrapEvent[]).flatMap((w) => (w.event.type === 'RunEnd' ? [{ agent: w.taskAgentName, end: w.event }] : []));

describe('credentials of remote A2A agents', () => {
  it('a2a.headers gives each remote its own credentials, on its card and its JSON-RPC requests; the environment token is not sent', async () => {
    process.env[A2A_TOKEN_ENV] = 'the-environment-token';
    const [alpha, beta] = [await remote('answer'), await remote('answer')];
    const asked: RemoteA2ARequest[] = [];
    const tokens: Record<string, string> = { alpha: 'token-of-alpha', beta: 'token-of-beta' };
    const headers = (request: RemoteA2ARequest) => {
      asked.push(request);
      return { authorization: `Bearer ${tokens[request.agentName]}` };
    };
    const events = await run(multitaskReply([[1, 'alpha', 'Job A', 'A'], [2, 'beta', 'Job B', 'B']]), { alpha: alpha.cardUrl, beta: beta.cardUrl }, { a2a: { headers } });
    expect(childEnds(events).map((c) => c.end)).toEqual([expect.objectContaining({ abnormal: false, text: 'done' }), expect.objectContaining({ abnormal: false, text: 'done' })]);
    for (const [server, token] of [[alpha, 'token-of-alpha'], [beta, 'token-of-beta']] as const) {
      expect(server.requests.map((r) => r.method)).toEqual(['GET', 'POST']);
      expect(server.requests.map((r) => r.headers.authorization)).toEqual([`Bearer ${token}`, `Bearer ${token}`]);
    }
    // Told which request it is for: the card's URL, then the JSON-RPC URL the card named.
    expect(asked.filter((r) => r.agentName === 'alpha')).toEqual([
      { url: alpha.cardUrl, cardUrl: alpha.cardUrl, agentName: 'alpha' },
      { url: alpha.cardUrl.replace('/.well-known/agent-card.json', '/a2a'), cardUrl: alpha.cardUrl, agentName: 'alpha' },
    ]);
  });

  it('a2a.token replaces RXHARNESS_A2A_TOKEN; without either option, the environment variable is the token', async () => {
    process.env[A2A_TOKEN_ENV] = 'the-environment-token';
    const first = await remote('answer');
    await run(taskReply('first', 'Job', 'Job'), { first: first.cardUrl }, { a2a: { token: 'the-option-token' } });
    expect(first.requests.map((r) => r.headers.authorization)).toEqual(['Bearer the-option-token', 'Bearer the-option-token']);
    await fixture!.close();
    const second = await remote('answer');
    await run(taskReply('second', 'Job', 'Job'), { second: second.cardUrl });
    expect(second.requests.map((r) => r.headers.authorization)).toEqual(['Bearer the-environment-token', 'Bearer the-environment-token']);
  });

  it('the default token goes only to the card\'s own origin: a card naming a JSON-RPC URL on another host does not get it sent there', async () => {
    process.env[A2A_TOKEN_ENV] = 'the-environment-token';
    const elsewhere = await remote('answer');
    const card = await startScriptedRemote('answer', 0, elsewhere.cardUrl.replace('/.well-known/agent-card.json', '/a2a'));
    remotes.push(card);
    const events = await run(taskReply('lured', 'Job', 'Job'), { lured: card.cardUrl }, { a2a: { token: 'the-option-token' } });
    expect(childEnds(events).map((c) => c.end)).toEqual([expect.objectContaining({ abnormal: false, text: 'done' })]);
    expect(card.requests.map((r) => [r.method, r.headers.authorization])).toEqual([['GET', 'Bearer the-option-token']]);
    // The other host answered the task, without any token.
    expect(elsewhere.requests.map((r) => [r.method, r.headers.authorization])).toEqual([['POST', undefined]]);
  });

  it.each<[string, Partial<HarnessEngineOptions>, readonly string[]]>([
    ['RXHARNESS_A2A_TOKEN', {}, ['the-environment-token']],
    ['a2a.token', { a2a: { token: 'the-option-token' } }, ['the-option-token']],
    ['a2a.headers', { a2a: { headers: () => ({ authorization: 'Bearer the-header-token', 'x-api-key': 'the-api-key' }) } }, ['the-header-token', 'the-api-key']],
  ])('a remote that echoes the credentials of %s in its error never gets them into an event or the error', async (_, options, secrets) => {
    process.env[A2A_TOKEN_ENV] = 'the-environment-token';
    const echo = await remote('echo-401');
    const events = await run(taskReply('echo', 'Job', 'Job'), { echo: echo.cardUrl }, options);
    expect(echo.requests.some((r) => JSON.stringify(r.headers).includes(secrets[0]!))).toBe(true); // it was sent, and echoed
    const [{ end }] = childEnds(events);
    expect(end).toMatchObject({ abnormal: true, error: expect.stringMatching(/^the remote A2A agent echo \(.*\) failed: .*401.*unauthorized: (Bearer )?\[redacted\] with key /) });
    const everything = JSON.stringify(events) + JSON.stringify(fixture!.requestsOf('main').map((r) => r.body.messages));
    for (const secret of secrets) expect(everything).not.toContain(secret);
  });

  it.each([
    ['a short one under a plain name is sent and left as the remote echoes it', 'eu', /for tenant eu$/],
    ['a long one under a plain name is redacted like a credential', 'tenant-eu-west-1', /for tenant \[redacted\]$/],
  ])('a2a.headers beside a credential, %s', async (_, tenant, echoed) => {
    const echo = await remote('echo-401');
    const headers = () => ({ authorization: 'Bearer the-header-token', 'x-tenant': tenant });
    const events = await run(taskReply('echo', 'Job', 'Job'), { echo: echo.cardUrl }, { a2a: { headers } });
    expect(echo.requests.map((r) => r.headers['x-tenant'])).toEqual([tenant, tenant]);
    const [{ end }] = childEnds(events);
    expect(end).toMatchObject({ abnormal: true, error: expect.stringMatching(echoed) });
    expect(JSON.stringify(events)).not.toContain('the-header-token');
  });
});
