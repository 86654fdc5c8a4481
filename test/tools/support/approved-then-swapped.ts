/**
 * A tool call a human approves while the workspace changes under it: the set-up of the tests
 * where a path approved for a tool leads elsewhere by the time the tool runs (a file or
 * folder swapped for a link while the approval was pending).
 *
 * @module
 */
import { ReActAgent } from '../../../src/agent/react-agent.js';
import { PermissionPolicy, type PermissionRule } from '../../../src/permission/index.js';
import { createBuiltinTools } from '../../../src/tools/builtin/index.js';
import { closedAfterEach } from '../../support/closed-after-each.js';
import { collect, own } from '../../support/collect-events.js';
import { FakeOpenAIServer } from '../../support/fake-openai-server.js';
import { openAIModelFor } from '../../support/openai-model.js';
import { toolContextPerTest } from '../../support/tool-context-per-test.js';

/** The call's end as the model is told it. */
export interface SwappedEnd {
  readonly text: string;
  readonly error?: string;
}

/** One tool call, as the fake model sends it. */
export interface SwappedCall {
  readonly name: string;
  readonly arguments: Record<string, unknown>;
}

/**
 * Runs `call` under `rules` in a fresh workspace that `setup` filled; while its approval is
 * pending, `swap` changes the workspace. Resolves to the call's end and the arguments of each
 * approval asked (as JSON).
 */
export type ApprovedThenSwapped = (
  call: SwappedCall,
  rules: PermissionRule[],
  swap: (dir: string) => Promise<void>,
  setup: (dir: string) => Promise<void>,
) => Promise<{ end: SwappedEnd; asked: string[] }>;

/**
 * Registers, for each test, a workspace (removed after it) and the clean-up of the fake model
 * server, and returns the run. Call once at the top of a test file.
 *
 * @example
 * ```ts
 * const approvedThenSwapped = approvedThenSwappedPerTest();
 * it('...', async () => {
 *   const { end } = await approvedThenSwapped({ name: 'list', arguments: { path: 'notes' } }, rules, swap, setup);
 * });
 * ```
 */
export function approvedThenSwappedPerTest(): ApprovedThenSwapped {
  const fresh = toolContextPerTest();
  // Registered after the workspace's hooks, so it runs first: the server closes before the folder goes.
  const open = closedAfterEach<{ server: FakeOpenAIServer }>(['server']);
  return async (call, rules, swap, setup) => {
    const dir = fresh.ws.dir;
    await setup(dir);
    open.server = await FakeOpenAIServer.start({ replies: [{ toolCalls: [call] }, { text: 'done' }] });
    const asked: string[] = [];
    const agent = new ReActAgent({
      model: openAIModelFor(open.server),
      workspace: dir,
      tools: createBuiltinTools(),
      permissions: new PermissionPolicy({ rules }),
      approve: async (request) => {
        asked.push(JSON.stringify(request.args));
        await swap(dir);
        return { decision: 'approve' };
      },
    });
    const [end] = own(await collect(agent.stream('go')), 'ToolCallEnd') as SwappedEnd[];
    return { end: end!, asked };
  };
}
