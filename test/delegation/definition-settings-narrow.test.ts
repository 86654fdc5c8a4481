import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AgentEvent } from '../../src/events/agent-event.js';
import type { HarnessEngineOptions } from '../../src/engine/engine-options.js';
import { OpenAIChatModel } from '../../src/model/openai-chat-model.js';
import type { ModelSettings } from '../../src/model/model-settings.js';
import { testAgentPrompt } from '../support/agent-turns.js';
import { collect } from '../support/collect-events.js';
import { startDelegationFixture, type DelegationFixture } from '../support/delegation-fixture.js';
import { steps, taskReply } from '../support/delegation-script.js';

let f: DelegationFixture;
beforeEach(async () => {
  f = await startDelegationFixture({ '*': () => ({ text: 'ok' }) });
});
afterEach(() => f.close());

/** The operator's limits, as `--max-tokens 100 --context-window 6000` set them: on the model. */
const OPERATOR: ModelSettings = { maxTokens: 100, contextWindow: 6000 };

/** Writes a definition file into `<folder>/.rxharness/agents/` (the workspace's, or the home's). */
async function plant(folder: string, file: string, frontMatter: string): Promise<void> {
  const dir = join(folder, '.rxharness', 'agents');
  await mkdir(dir, { recursive: true });
  // The body names the agent, so the fixture's routes tell its requests apart.
  await writeFile(join(dir, file), `---\n${frontMatter}\n---\n${testAgentPrompt(file.replace(/\.md$/, ''))}\n`);
}

const primary = (settings: string) => `name: boss\ndescription: main\nmode: primary\n${settings}`;
const explore = (settings: string) => `name: explore\noverride: true\ndescription: explores\n${settings}`;

function engineOn(settings: ModelSettings | undefined, options: Partial<HarnessEngineOptions> = {}) {
  const model = new OpenAIChatModel({ model: 'main-model', baseURL: f.server.baseURL, apiKey: 'test', maxRetries: 0, ...(settings ? { settings } : {}) });
  return f.engine({ model, ...options });
}

/** The `max_tokens` of each request the server got. */
const maxTokensSent = () => f.server.requests.map((r) => r.body.max_tokens);

const ignored = (events: readonly AgentEvent[]) => events.flatMap((e) => (e.type === 'Warning' && e.code === 'definition-setting-ignored' ? [e.message] : []));

describe('a workspace definition only narrows the model settings the operator set', () => {
  it('a primary definition with max_tokens: 1000000 does not lift the model\'s 100, and the run says so', async () => {
    await plant(f.workspace.dir, 'main.md', primary('max_tokens: 1000000'));
    const events = await collect(engineOn(OPERATOR).stream('hi'));
    expect(maxTokensSent()).toEqual([100]);
    const [message, ...more] = ignored(events);
    expect(more).toEqual([]);
    expect(message).toContain(`${join(f.workspace.dir, '.rxharness', 'agents', 'main.md')}: max_tokens 1000000 is lowered to 100, the model's`);
    expect(message).toContain('trustWorkspaceAgents');
  });

  it('an override of explore with max_tokens: 1000000 does not lift it either, run directly', async () => {
    await plant(f.workspace.dir, 'explore.md', explore('max_tokens: 1000000'));
    const events = await collect(engineOn(OPERATOR).agent('explore').stream('hi'));
    expect(maxTokensSent()).toEqual([100]);
    expect(ignored(events)).toHaveLength(1);
  });

  it('nor as a delegated task', async () => {
    f.route({ main: steps(taskReply('explore', 'look around')), explore: () => ({ text: 'seen' }) });
    await plant(f.workspace.dir, 'explore.md', explore('max_tokens: 1000000'));
    const events = await collect(engineOn(OPERATOR).stream('go'));
    expect(f.requestsOf('explore').map((r) => r.body.max_tokens)).toEqual([100]);
    expect(events.some((e) => e.type === 'TaskWrap' && e.event.type === 'Warning' && e.event.code === 'definition-setting-ignored')).toBe(true);
  });

  it('a smaller max_tokens narrows, unwarned; without a model limit the definition\'s stands', async () => {
    await plant(f.workspace.dir, 'explore.md', explore('max_tokens: 40'));
    const events = await collect(engineOn(OPERATOR).agent('explore').stream('hi'));
    await plant(f.workspace.dir, 'main.md', primary('max_tokens: 1000000'));
    const unlimited = await collect(engineOn(undefined).stream('hi'));
    expect(maxTokensSent()).toEqual([40, 1000000]);
    expect([...ignored(events), ...ignored(unlimited)]).toEqual([]);
  });

  it('a context_window larger than the model\'s is ignored (compaction keeps the operator\'s); a smaller one is honoured', async () => {
    await plant(f.workspace.dir, 'main.md', primary('context_window: 10000000'));
    const larger = engineOn(OPERATOR);
    expect((await larger.compact('s')).contextWindow).toBe(6000);
    expect(ignored(await collect(larger.stream('hi')))[0]).toContain('context_window 10000000 is ignored: it is larger than the model\'s (6000)');
    await plant(f.workspace.dir, 'main.md', primary('context_window: 3000'));
    const smaller = engineOn(OPERATOR);
    expect((await smaller.compact('s')).contextWindow).toBe(3000);
    expect(ignored(await collect(smaller.stream('hi')))).toEqual([]);
  });

  it('a context_window is ignored when the model sets no window to hold it to', async () => {
    await plant(f.workspace.dir, 'main.md', primary('context_window: 10000000'));
    const engine = engineOn(undefined);
    expect((await engine.compact('s')).contextWindow).not.toBe(10000000);
    expect(ignored(await collect(engine.stream('hi')))[0]).toContain('context_window 10000000 is ignored: the model\'s window is not set');
  });
});

describe('a definition that may loosen its agent keeps its settings', () => {
  it.each([
    ['a workspace file, when the engine trusts workspace definitions', true],
    ['a file in ~/.rxharness/agents/', false],
  ])('%s', async (_, trusted) => {
    await plant(trusted ? f.workspace.dir : f.home, 'main.md', primary('max_tokens: 1000000\ncontext_window: 10000000'));
    const engine = engineOn(OPERATOR, trusted ? { trustWorkspaceAgents: true } : {});
    const events = await collect(engine.stream('hi'));
    expect(maxTokensSent()).toEqual([1000000]);
    expect((await engine.compact('s')).contextWindow).toBe(10000000);
    expect(ignored(events)).toEqual([]);
  });
});
