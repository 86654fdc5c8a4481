import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { lastValueFrom, toArray } from 'rxjs';
import { afterEach, describe, expect, it } from 'vitest';
import type { AgentEvent, RunEndEvent, TaskWrapEvent } from '../../../src/events/agent-event.js';
import { isTaskWrap } from '../../../src/events/guards.js';
import type { HarnessEngineOptions } from '../../../src/engine/engine-options.js';
import { A2A_TOKEN_ENV } from '../../../src/delegation/a2a/remote-credentials.js';
import type { RemoteA2ARequest } from '../../../src/delegation/a2a/remote-a2a-options.js';
import { closedAfterEach } from '../../support/closed-after-each.js';
import { startDelegationFixture, type DelegationFixture } from '../../support/delegation-fixture.js';
import { steps, taskReply } from '../../support/delegation-script.js';
import { startRecordingServer, type RecordingServer } from './recording-server.js';
import { startScriptedRemote, type ScriptedRemote } from './scripted-remote.js';

const open = closedAfterEach<{ remote: ScriptedRemote; refusing: RecordingServer; fixture: DelegationFixture }>(['remote', 'refusing', 'fixture']);
afterEach(() => {
  delete process.env[A2A_TOKEN_ENV];
});

/**
 * Runs a main agent delegating to `helper`, a definition file in `folder` (the workspace's
 * `.rxharness/agents/`, as a cloned repository would ship it, or the user's) naming `cardUrl`;
 * the helper's `RunEnd` and the file.
 */
async function delegate(folder: 'workspace' | 'home', cardUrl: string, options: Partial<HarnessEngineOptions>): Promise<{ end: RunEndEvent; file: string }> {
  const fixture = (open.fixture = await startDelegationFixture({ main: steps(taskReply('helper', 'Do it', 'Job')) }));
  const agents = join(folder === 'workspace' ? fixture.workspace.dir : fixture.home, '.rxharness', 'agents');
  mkdirSync(agents, { recursive: true });
  const file = join(agents, 'helper.md');
  writeFileSync(file, `---\nname: helper\ndescription: Helps with anything\na2a: ${cardUrl}\n---\n`);
  const engine = fixture.engine(options);
  let events: AgentEvent[];
  try {
    events = await lastValueFrom(engine.stream('Delegate it').pipe(toArray()));
  } finally {
    await engine.close();
  }
  const ends = (events.filter(isTaskWrap) as TaskWrapEvent[]).flatMap((w) => (w.event.type === 'RunEnd' ? [w.event] : []));
  expect(ends).toHaveLength(1);
  return { end: ends[0]!, file };
}

/** `a2a.headers` giving an API key, and the requests it was asked about. */
function apiKeyHeaders(): { asked: RemoteA2ARequest[]; options: Partial<HarnessEngineOptions> } {
  const asked: RemoteA2ARequest[] = [];
  return { asked, options: { a2a: { headers: (request) => (asked.push(request), { 'x-api-key': 'the-users-api-key' }) } } };
}

describe('remote A2A agents named by an untrusted workspace definition', () => {
  it.each<[string, Partial<HarnessEngineOptions>]>([
    ['RXHARNESS_A2A_TOKEN', {}],
    ['a2a.token', { a2a: { token: 'the-users-option-token' } }],
  ])('get no %s: the task goes without credentials', async (_, options) => {
    process.env[A2A_TOKEN_ENV] = 'the-users-environment-token';
    open.remote = await startScriptedRemote('answer');
    const { end } = await delegate('workspace', open.remote.cardUrl, options);
    expect(end).toMatchObject({ abnormal: false, text: 'done' });
    expect(open.remote.requests.map((r) => [r.method, r.headers.authorization])).toEqual([['GET', undefined], ['POST', undefined]]);
  });

  it('do not have a2a.headers asked at all: nothing it gives is sent', async () => {
    open.remote = await startScriptedRemote('answer');
    const { asked, options } = apiKeyHeaders();
    const { end } = await delegate('workspace', open.remote.cardUrl, options);
    expect(end).toMatchObject({ abnormal: false, text: 'done' });
    expect(asked).toEqual([]);
    expect(open.remote.requests.map((r) => r.headers['x-api-key'])).toEqual([undefined, undefined]);
  });

  it.each<[string, 'workspace' | 'home', Partial<HarnessEngineOptions>]>([
    ['a workspace definition the engine trusts (trustWorkspaceAgents)', 'workspace', { trustWorkspaceAgents: true }],
    ['a definition in ~/.rxharness/agents/', 'home', {}],
  ])('%s gets them, as before', async (_, folder, options) => {
    process.env[A2A_TOKEN_ENV] = 'the-users-environment-token';
    open.remote = await startScriptedRemote('answer');
    const { asked, options: headers } = apiKeyHeaders();
    await delegate(folder, open.remote.cardUrl, { ...options, ...headers });
    expect(asked.map((r) => r.agentName)).toEqual(['helper', 'helper']);
    expect(open.remote.requests.map((r) => [r.headers.authorization, r.headers['x-api-key']])).toEqual([
      ['Bearer the-users-environment-token', 'the-users-api-key'],
      ['Bearer the-users-environment-token', 'the-users-api-key'],
    ]);
  });

  it.each([
    ['its card answers 403', 403, 'card'],
    ['its JSON-RPC endpoint answers 401', 401, 'rpc'],
  ] as const)('when %s, the task fails saying why no credentials were sent and how to trust the definition', async (_, status, where) => {
    process.env[A2A_TOKEN_ENV] = 'the-users-environment-token';
    // The URL that refuses: the card itself, or the JSON-RPC endpoint a card that answers names.
    let cardUrl: string;
    let refused: string;
    if (where === 'card') {
      open.refusing = await startRecordingServer((_req, res) => res.writeHead(status).end('forbidden'));
      cardUrl = refused = `${open.refusing.base}/.well-known/agent-card.json`;
    } else {
      open.remote = await startScriptedRemote('echo-401');
      cardUrl = open.remote.cardUrl;
      refused = cardUrl.replace('/.well-known/agent-card.json', '/a2a');
    }
    const { end, file } = await delegate('workspace', cardUrl, {});
    expect(end.abnormal).toBe(true);
    expect(end.error).toContain(
      `failed: ${refused} answered ${status} without credentials: none were sent, since the definition comes from the workspace (${file}) ` +
        `and a cloned repository's definition gets neither a2a.token, ${A2A_TOKEN_ENV} nor a2a.headers. If you trust it, set the engine ` +
        'option trustWorkspaceAgents, or move the file to ~/.rxharness/agents/ or a folder in agentDirs',
    );
  });
});
