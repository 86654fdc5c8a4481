import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AgentEvent } from '../../src/events/agent-event.js';
import type { HarnessEngineOptions } from '../../src/engine/engine-options.js';
import { OpenAIChatModel, type OpenAIChatModelOptions } from '../../src/model/openai-chat-model.js';
import { testAgentPrompt } from '../support/agent-turns.js';
import { collect } from '../support/collect-events.js';
import { startDelegationFixture, type DelegationFixture } from '../support/delegation-fixture.js';

let f: DelegationFixture;
beforeEach(async () => {
  f = await startDelegationFixture({ '*': () => ({ text: 'ok' }) });
});
afterEach(() => f.close());

/** Writes a `mode: primary` definition with `settings` into the workspace's (or the home's) `.rxharness/agents/`. */
async function primary(settings: string, folder = f.workspace.dir): Promise<void> {
  const dir = join(folder, '.rxharness', 'agents');
  await mkdir(dir, { recursive: true });
  await writeFile(join(dir, 'main.md'), `---\nname: boss\ndescription: main\nmode: primary\n${settings}\n---\n${testAgentPrompt('main')}\n`);
}

/** A run of the main agent on a model the operator set up with `options` (as the CLI's flags do). */
function run(options: Partial<OpenAIChatModelOptions>, engine: Partial<HarnessEngineOptions> = {}): Promise<AgentEvent[]> {
  const model = new OpenAIChatModel({ model: 'main-model', baseURL: f.server.baseURL, apiKey: 'test', maxRetries: 0, ...options });
  return collect(f.engine({ model, ...engine }).stream('hi'));
}

const sent = (field: string) => f.server.requests.map((r) => r.body[field]);
const ignored = (events: readonly AgentEvent[]) => events.flatMap((e) => (e.type === 'Warning' && e.code === 'definition-setting-ignored' ? [e.message] : []));

describe('a workspace definition does not lift a reply cap given in the extra body', () => {
  it.each([
    ['max_tokens', { max_tokens: 100 }],
    ['max_completion_tokens', { max_completion_tokens: 100 }],
  ])('--extra-body with %s: 100', async (_, extraBody) => {
    await primary('max_tokens: 1000000');
    const events = await run({ extraBody });
    expect(sent('max_tokens')).toEqual([100]);
    expect(ignored(events)).toEqual([expect.stringContaining("max_tokens 1000000 is lowered to 100, the model's")]);
  });

  it('the smaller of max_completion_tokens and the maxTokens setting holds; a smaller definition stands, unwarned', async () => {
    await primary('max_tokens: 1000000');
    const held = await run({ settings: { maxTokens: 300 }, extraBody: { max_completion_tokens: 200 } });
    await primary('max_tokens: 50');
    const smaller = await run({ extraBody: { max_tokens: 100 } });
    expect(sent('max_tokens')).toEqual([200, 50]);
    expect(ignored(held)).toHaveLength(1);
    expect(ignored(smaller)).toEqual([]);
  });
});

describe("a workspace definition keeps the model's tool_choice none and parallel_tool_calls false", () => {
  it('tool_choice required and parallel_tool_calls true are ignored, each with a warning', async () => {
    await primary('tool_choice: required\nparallel_tool_calls: true');
    const events = await run({ settings: { toolChoice: 'none', parallelToolCalls: false } });
    expect(sent('tool_choice')).toEqual(['none']);
    expect(sent('parallel_tool_calls')).toEqual([false]);
    const messages = ignored(events);
    expect(messages).toHaveLength(2);
    expect(messages[0]).toContain(`tool_choice required is ignored: the model's is "none"`);
    expect(messages[1]).toContain("parallel_tool_calls true is ignored: the model's is false");
  });

  it('the same limits given in the extra body hold too', async () => {
    await primary('tool_choice: auto\nparallel_tool_calls: true');
    const events = await run({ extraBody: { tool_choice: 'none', parallel_tool_calls: false } });
    expect(sent('tool_choice')).toEqual(['none']);
    expect(sent('parallel_tool_calls')).toEqual([false]);
    expect(ignored(events)).toHaveLength(2);
  });

  it('a definition may narrow: tool_choice none and parallel_tool_calls false over the model\'s auto and true, unwarned', async () => {
    await primary('tool_choice: none\nparallel_tool_calls: false');
    const events = await run({ settings: { toolChoice: 'auto', parallelToolCalls: true } });
    expect(sent('tool_choice')).toEqual(['none']);
    expect(sent('parallel_tool_calls')).toEqual([false]);
    expect(ignored(events)).toEqual([]);
  });

  it('a trusted definition keeps its own', async () => {
    await primary('tool_choice: required\nparallel_tool_calls: true\nmax_tokens: 1000000', f.home);
    const events = await run({ settings: { toolChoice: 'none', parallelToolCalls: false }, extraBody: { max_tokens: 100 } });
    expect([sent('tool_choice'), sent('parallel_tool_calls'), sent('max_tokens')]).toEqual([['required'], [true], [1000000]]);
    expect(ignored(events)).toEqual([]);
  });
});
