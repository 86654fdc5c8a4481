/**
 * A custom tool registered only on the engine that delegates (`distributeTasks`) is not on
 * the worker that runs the task. The task must fail at once, naming the tools and what to do,
 * instead of its child running without them (its model never offered them, failing its task
 * in confusing ways).
 */
import { describe, expect, it } from 'vitest';
import type { Tool } from '../../src/tools/tool.js';
import { testAgent } from '../support/agent-turns.js';
import { steps, taskReply } from '../support/delegation-script.js';
import { TEXT_PARAMETERS } from '../support/test-tools.js';
import { HAS_REDIS } from './redis-server.js';
import { useScaleKits } from './scale-kit.js';

const lookup: Tool<{ text: string }> = {
  name: 'lookup',
  description: 'Looks a word up in the launching engine\'s own dictionary.',
  parameters: TEXT_PARAMETERS,
  execute: (args) => `definition of ${args.text}`,
};

describe.skipIf(!HAS_REDIS)('a task naming a tool its worker does not have', () => {
  const scale = useScaleKits();

  it('fails at once, naming the missing tool and to register it on the worker; its child makes no request', { timeout: 60_000 }, async () => {
    const kit = await scale.kit();
    kit.fixture.route({
      main: steps(taskReply('explorer', 'look it up')),
      explorer: () => ({ text: 'ran without lookup' }),
    });
    await kit.worker(); // without `lookup`
    const engine = await kit.engine({ distributeTasks: true, tools: [lookup] }, [testAgent('explorer')]);
    const { text } = await engine.call('go');
    expect(text).toContain('ERROR: the explorer task failed: agent "explorer" needs tools this worker does not have: "lookup"');
    expect(text).toContain("Register the same tools on every worker (HarnessWorker's `tools` and `mcpServers` options)");
    expect(kit.fixture.requestsOf('explorer')).toHaveLength(0);
  });

  it('runs on a worker that has it too, the tool offered to the child', { timeout: 60_000 }, async () => {
    const kit = await scale.kit();
    kit.fixture.route({
      main: steps(taskReply('explorer', 'look it up')),
      explorer: () => ({ text: 'looked up' }),
    });
    await kit.worker({ tools: [lookup] });
    const engine = await kit.engine({ distributeTasks: true, tools: [lookup] }, [testAgent('explorer')]);
    const { text } = await engine.call('go');
    expect(text).toContain('looked up');
    const offered = (kit.fixture.requestsOf('explorer')[0]?.body.tools ?? []).map((t) => t.function?.name);
    expect(offered).toContain('lookup');
  });
});
