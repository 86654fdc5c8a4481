import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HarnessEngine } from '../../src/engine/harness-engine.js';
import { ScriptedModel } from '../../src/model/scripted-model.js';
import { DELEGATION_TOOL_NAMES, isDelegationTool } from '../../src/subagent/delegation-tool-names.js';
import { narrowTools } from '../../src/subagent/narrow-tools.js';
import { testAgent, type Turn } from '../support/agent-turns.js';
import { collect } from '../support/collect-events.js';
import { scriptedRoutes } from '../support/scripted-routes.js';
import { echoTool } from '../support/test-tools.js';
import { makeWorkspace, type TestWorkspace } from '../support/tool-context.js';

// A child never holds a tool its parent lacks, a tool its definition disallows, a tool the
// engine disabled, or a delegation tool at the depth limit — checked on narrowTools itself
// down random chains, and on the tools a real engine offers each agent's model.

const BUILTINS = ['read', 'write', 'edit', 'list', 'glob', 'grep', 'bash', 'todo'];
const CUSTOM = ['alpha_tool', 'beta_tool'];
const UNIVERSE = [...BUILTINS, ...CUSTOM, ...DELEGATION_TOOL_NAMES];

/** A definition's tool fields: `tools` absent, empty, `*`, or a subset (maybe with names nobody has). */
const toolFields = fc.record({
  tools: fc.oneof(
    fc.constant(undefined),
    fc.constant([] as string[]),
    fc.constant(['*']),
    fc.subarray([...UNIVERSE, 'ghost_tool']),
    fc.subarray([...UNIVERSE, '*']),
  ),
  disallowedTools: fc.subarray([...UNIVERSE, 'ghost_tool']),
});
/** The same for an engine: a definition disallowing a tool nobody has is not loaded (`wideningToolProblem`). */
const engineToolFields = toolFields.map((fields) => ({ ...fields, disallowedTools: fields.disallowedTools.filter((name) => name !== 'ghost_tool') }));

/** What narrowing must give, by rule (not by code): kept iff wanted, not removed, allowed at this depth. */
function mustKeep(name: string, fields: { tools?: readonly string[]; disallowedTools: readonly string[] }, disabled: readonly string[], canDelegate: boolean): boolean {
  const wildcard = fields.tools === undefined || fields.tools.length === 0 || fields.tools.includes('*');
  return (wildcard || fields.tools!.includes(name)) && !fields.disallowedTools.includes(name) && !disabled.includes(name) && (canDelegate || !isDelegationTool(name));
}

/** A definition's `tools` as granted: `edit` brings `read` and `write` (Solon's convention). */
function granted(fields: { tools?: readonly string[]; disallowedTools: readonly string[] }) {
  const tools = fields.tools?.flatMap((name) => (name === 'edit' ? ['edit', 'read', 'write'] : [name]));
  return { ...fields, ...(tools === undefined ? {} : { tools }) };
}

describe('narrowTools down random delegation chains', () => {
  it('never grants a tool the parent lacks, nor a disallowed, disabled or (at the limit) delegation tool', () => {
    fc.assert(
      fc.property(
        fc.subarray(UNIVERSE),
        fc.subarray(UNIVERSE),
        fc.integer({ min: 0, max: 4 }),
        fc.array(toolFields, { minLength: 1, maxLength: 4 }),
        (rootTools, disabled, maxDepth, chain) => {
          let parent = rootTools;
          for (const [i, fields] of chain.entries()) {
            const depth = i + 1;
            const canDelegate = depth < maxDepth;
            const child = narrowTools({ parentTools: parent, ...fields, disabledTools: disabled, canDelegate });
            for (const name of child) {
              expect(parent).toContain(name);
              expect(rootTools).toContain(name);
              expect(fields.disallowedTools).not.toContain(name);
              expect(disabled).not.toContain(name);
              if (!canDelegate) expect(isDelegationTool(name)).toBe(false);
            }
            // Nothing allowed was lost, and the parent's order is kept.
            expect(child).toEqual(parent.filter((name) => mustKeep(name, fields, disabled, canDelegate)));
            parent = child;
          }
        },
      ),
      { seed: 99, numRuns: 1_000 },
    );
  });
});

describe('tools a real engine offers down a delegation tree', () => {
  let workspace: TestWorkspace;
  let home: TestWorkspace;
  beforeAll(async () => {
    workspace = await makeWorkspace();
    home = await makeWorkspace('rxharness-home-');
  });
  afterAll(async () => {
    await workspace.cleanup();
    await home.cleanup();
  });

  it('each agent is offered a subset of its parent’s tools, narrowed by its definition, the engine and the depth', async () => {
    let delegations = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.subarray(UNIVERSE),
        fc.integer({ min: 1, max: 3 }),
        engineToolFields,
        engineToolFields,
        async (disabled, maxDepth, childFields, grandchildFields) => {
          const turns: Record<string, Turn> = {};
          const delegate = (from: string, to: string) => (turn: Turn) => {
            turns[from] ??= turn;
            return turn.step === 1 && turn.toolNames.includes('task')
              ? { toolCalls: [{ name: 'task', args: { agent_name: to, prompt: 'go', description: `${from} to ${to}` } }] }
              : { text: `${from} done` };
          };
          const model = new ScriptedModel(scriptedRoutes({ main: delegate('main', 'child'), child: delegate('child', 'grandchild'), grandchild: delegate('grandchild', 'none') }));
          const engine = new HarnessEngine({
            model,
            workspace: workspace.dir,
            homeDir: home.dir,
            maxDepth,
            disabledTools: disabled,
            tools: CUSTOM.map((name) => echoTool(name)),
          });
          engine.agents.add(testAgent('child', childFields));
          engine.agents.add(testAgent('grandchild', grandchildFields));
          const events = await collect(engine.stream('start'));
          expect(events.at(-1)).toMatchObject({ type: 'RunEnd', agentName: 'main' });

          const main = turns['main']!.toolNames;
          expect(main).toEqual(UNIVERSE.filter((n) => !disabled.includes(n)));
          const levels: [string, typeof childFields][] = [['child', childFields], ['grandchild', grandchildFields]];
          let parent = main;
          for (const [depth, [name, fields]] of levels.entries()) {
            const turn = turns[name];
            if (!parent.includes('task')) {
              expect(turn, `${name} ran although its parent had no task tool`).toBeUndefined();
              break;
            }
            delegations += 1;
            const offered = [...turn!.toolNames].sort();
            expect(offered).toEqual(parent.filter((n) => mustKeep(n, granted(fields), disabled, depth + 1 < maxDepth)).sort());
            parent = turn!.toolNames;
          }
        },
      ),
      { seed: 31_415, numRuns: 40 },
    );
    expect(delegations).toBeGreaterThan(25);
  });
});
