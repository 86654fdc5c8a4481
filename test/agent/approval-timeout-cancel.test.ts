import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { HarnessEngineOptions } from '../../src/engine/engine-options.js';
import { testAgent } from '../support/agent-turns.js';
import { taskArgs } from '../support/delegation-script.js';
import { scriptedSteps } from '../support/scripted-routes.js';
import { echoTool } from '../support/test-tools.js';
import { makeSandbox, sandboxEngine, type Sandbox } from '../support/approval-kit.js';

// A run cancelled while an approval with a deadline waits leaves no timer behind, even when
// the handler never hears the cancel (it ignores its signal): the deadline is the run's.

let sandbox: Sandbox;
beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval'] });
});
afterEach(async () => {
  vi.useRealTimers();
  await sandbox.cleanup();
});

const MINUTE = 60_000;

async function askingEngine(options: Partial<HarnessEngineOptions>) {
  sandbox = await makeSandbox();
  return sandboxEngine(
    sandbox,
    {
      main: scriptedSteps({ toolCalls: [{ name: 'task', args: taskArgs('worker', 'echo it') }] }),
      worker: scriptedSteps({ toolCalls: [{ id: 'call_0', name: 'echo', args: { text: 'hello' } }] }),
    },
    [testAgent('worker')],
    { tools: [echoTool()], permissionRules: [{ tool: 'echo', action: 'ask' }], ...options },
  );
}

describe('a cancel while an approval with a deadline waits', () => {
  it('clears the deadline at once, though the handler ignores its signal', async () => {
    let asked = 0;
    const { engine } = await askingEngine({ approvalTimeoutMs: 10 * MINUTE, approve: () => (asked++, new Promise(() => undefined)) });
    const controller = new AbortController();
    const done = engine.call('go', { signal: controller.signal }).catch((e: unknown) => e);
    for (let i = 0; i < 100 && asked === 0; i++) await vi.advanceTimersByTimeAsync(0);
    expect(asked).toBe(1);
    controller.abort();
    expect((await done) as Error).toMatchObject({ name: 'AbortError' });
    await vi.advanceTimersByTimeAsync(0);
    expect(vi.getTimerCount()).toBe(0);
  });
});
