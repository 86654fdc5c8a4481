/**
 * The scene of the approval-deadline tests: vitest's fake timers (the deadline runs in virtual
 * time), and an engine in a sandbox whose main agent delegates to `worker`, which calls `echo`,
 * a tool a rule says to ask about.
 *
 * @module
 */
import { afterEach, beforeEach, vi } from 'vitest';
import type { HarnessEngineOptions } from '../../src/engine/engine-options.js';
import { testAgent } from '../support/agent-turns.js';
import { makeSandbox, sandboxEngine, type Sandbox, type SandboxEngine } from '../support/approval-kit.js';
import { taskArgs } from '../support/delegation-script.js';
import { scriptedSteps } from '../support/scripted-routes.js';
import { echoTool } from '../support/test-tools.js';

/** A minute, in the milliseconds the deadlines are given in. */
export const MINUTE = 60_000;

/** A sandbox engine of {@link askingEnginesPerTest}, and its `echo` tool (to read what ran). */
export type AskingEngine = SandboxEngine & { readonly echo: ReturnType<typeof echoTool> };

/** What {@link askingEnginesPerTest} makes for the current test. */
export interface AskingEngines {
  /** The test's engine: main → task(worker) → worker calls `echo`, asked about; `options` on top. */
  askingEngine(options: Partial<HarnessEngineOptions>): Promise<AskingEngine>;
  /** The test's sandbox alone (removed after the test), for an engine the test makes itself. */
  newSandbox(): Promise<Sandbox>;
}

/**
 * Registers the `beforeEach` that fakes the timers (setTimeout, setInterval and their clears)
 * and the `afterEach` that puts them back and removes the test's sandbox. Call at the top of a file.
 */
export function askingEnginesPerTest(): AskingEngines {
  let sandbox: Sandbox | undefined;
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval'] });
  });
  afterEach(async () => {
    vi.useRealTimers();
    await sandbox?.cleanup();
    sandbox = undefined;
  });
  const newSandbox = async (): Promise<Sandbox> => (sandbox = await makeSandbox());
  const askingEngine = async (options: Partial<HarnessEngineOptions>): Promise<AskingEngine> => {
    const echo = echoTool();
    const made = await sandboxEngine(
      await newSandbox(),
      {
        main: scriptedSteps({ toolCalls: [{ name: 'task', args: taskArgs('worker', 'echo it') }] }),
        worker: scriptedSteps({ toolCalls: [{ id: 'call_0', name: 'echo', args: { text: 'hello' } }] }),
      },
      [testAgent('worker')],
      { tools: [echo], permissionRules: [{ tool: 'echo', action: 'ask' }], ...options },
    );
    return { ...made, echo };
  };
  return { askingEngine, newSandbox };
}
