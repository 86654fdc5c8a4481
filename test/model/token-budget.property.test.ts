import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HarnessEngine } from '../../src/engine/harness-engine.js';
import { MemoryTokenBudget } from '../../src/model/memory-token-budget.js';
import type { BudgetReservation, TokenBudget } from '../../src/model/token-budget.js';
import { ScriptedModel, type ScriptedReply } from '../../src/model/scripted-model.js';
import { testAgent, type Turn } from '../support/agent-turns.js';
import { scriptedRoutes } from '../support/scripted-routes.js';
import { makeWorkspace, type TestWorkspace } from '../support/tool-context.js';

// The guarantee of issue 22.12: a tree never spends more than its budget plus the requests in
// flight when the last one was let through (at most one per running agent). Checked on the
// pool itself under random trees of budgets and random interleavings of agents, and on a real
// engine running random delegation trees.

const MAX_COST = 300;

/** A budget tree: node 0 is the root; every other node hangs under an earlier one, with or without a limit of its own. */
const budgetTree = fc.record({
  root: fc.integer({ min: 1, max: 2000 }),
  nodes: fc.array(fc.record({ parent: fc.nat(), limit: fc.option(fc.integer({ min: 1, max: 1500 }), { nil: undefined }) }), { maxLength: 5 }),
});

/** Agents: the node each draws from and what each of its requests really costs. */
const agents = fc.array(fc.record({ node: fc.nat(), costs: fc.array(fc.integer({ min: 0, max: MAX_COST }), { minLength: 1, maxLength: 12 }) }), { minLength: 1, maxLength: 8 });

interface Request {
  readonly chain: readonly number[];
  readonly cost: number;
  readonly admittedAt: number;
  settledAt: number;
}

describe('the token budget pool (property)', () => {
  it('spends at most each budget plus the requests in flight at its last admission', () => {
    fc.assert(
      fc.property(budgetTree, agents, fc.array(fc.nat(), { maxLength: 200 }), (tree, team, schedule) => {
        const budgets: TokenBudget[] = [new MemoryTokenBudget(tree.root)];
        const chains: number[][] = [[0]];
        const limits = [tree.root];
        tree.nodes.forEach(({ parent, limit }, i) => {
          const p = parent % (i + 1);
          budgets.push(budgets[p]!.child(limit));
          chains.push([i + 1, ...chains[p]!]);
          limits.push(limit ?? Number.POSITIVE_INFINITY);
        });
        const requests: Request[] = [];
        const state = team.map((a) => ({ node: a.node % budgets.length, costs: a.costs, next: 0, last: undefined as number | undefined, held: undefined as { r: BudgetReservation; q: Request } | undefined, stopped: false }));
        let clock = 0;
        const act = (i: number): void => {
          const a = state[i]!;
          clock++;
          if (a.held) {
            a.held.r.settle(a.held.q.cost);
            a.held.q.settledAt = clock;
            a.last = a.held.q.cost;
            a.held = undefined;
            return;
          }
          if (a.stopped || a.next >= a.costs.length) return;
          const r = budgets[a.node]!.reserve(a.last) as BudgetReservation | undefined;
          if (!r) return void (a.stopped = true);
          const q: Request = { chain: chains[a.node]!, cost: a.costs[a.next++]!, admittedAt: clock, settledAt: Number.POSITIVE_INFINITY };
          requests.push(q);
          a.held = { r, q };
        };
        for (const pick of schedule) act(pick % state.length);
        // The rest runs to its end, agent after agent.
        for (let i = 0; i < state.length; i++) while (state[i]!.held || (!state[i]!.stopped && state[i]!.next < state[i]!.costs.length)) act(i);
        budgets.forEach((budget, node) => {
          const through = requests.filter((q) => q.chain.includes(node));
          const used = through.reduce((sum, q) => sum + q.cost, 0);
          expect(budget.used).toBe(used);
          if (through.length === 0) return;
          const lastAdmission = Math.max(...through.map((q) => q.admittedAt));
          const inFlight = through.filter((q) => q.admittedAt <= lastAdmission && q.settledAt > lastAdmission);
          expect(inFlight.length).toBeLessThanOrEqual(state.length); // one per agent at most
          expect(used).toBeLessThanOrEqual(limits[node]! + inFlight.reduce((sum, q) => sum + q.cost, 0));
        });
      }),
      { numRuns: 300 },
    );
  });
});

/** A delegation tree: what each agent's request costs, its busy steps, and its children (depth 2 at most). */
interface Plan {
  readonly cost: number;
  readonly busy: number;
  readonly children: readonly Plan[];
}
const leaf = fc.record({ cost: fc.integer({ min: 1, max: MAX_COST }), busy: fc.integer({ min: 0, max: 3 }), children: fc.constant([] as Plan[]) });
const middle = fc.record({ cost: fc.integer({ min: 1, max: MAX_COST }), busy: fc.integer({ min: 0, max: 2 }), children: fc.array(leaf, { maxLength: 3 }) });
const plan: fc.Arbitrary<Plan> = fc.record({ cost: fc.integer({ min: 1, max: MAX_COST }), busy: fc.integer({ min: 0, max: 2 }), children: fc.array(middle, { maxLength: 4 }) });

describe('a delegation tree under a token budget (property, real engine)', () => {
  let workspace: TestWorkspace;
  beforeAll(async () => {
    workspace = await makeWorkspace();
  });
  afterAll(() => workspace.cleanup());

  it('never charges more than the budget plus the one request in flight (all answers synchronous)', async () => {
    await fc.assert(
      fc.asyncProperty(plan, fc.integer({ min: 1, max: 3000 }), async (root, budget) => {
        const byId = new Map<string, Plan>();
        const name = (p: Plan, id: string): string => (byId.set(id, p), id);
        name(root, 'n');
        let spent = 0;
        let biggest = 0;
        const route = (turn: Turn): ScriptedReply => {
          const node = byId.get(turn.prompt.split('\n').at(-1)!.trim())!;
          spent += node.cost;
          biggest = Math.max(biggest, node.cost);
          const usage = { promptTokens: 0, completionTokens: node.cost, totalTokens: node.cost };
          const id = turn.prompt.split('\n').at(-1)!.trim();
          if (turn.toolNames.length === 0 || turn.step > 1 + node.busy) return { text: `done ${id}`, usage };
          if (turn.step === 1 && node.children.length > 0) {
            const tasks = node.children.map((c, i) => ({ index: i + 1, agent_name: id.length === 1 ? 'd1' : 'd2', prompt: name(c, `${id}.${i}`), description: `${id}.${i}` }));
            return { toolCalls: [{ name: 'multitask', args: { tasks } }], usage };
          }
          return { toolCalls: [{ name: 'todo', args: { todos: [] } }], usage };
        };
        const model = new ScriptedModel(scriptedRoutes({ '*': route }));
        const engine = new HarnessEngine({ model, workspace: workspace.dir, homeDir: workspace.home, tokenBudget: budget, maxDepth: 3 });
        engine.agents.add(testAgent('d1'));
        engine.agents.add(testAgent('d2'));
        const result = await engine.call('n');
        await engine.close();
        expect(result.metrics.totalTokens).toBeLessThanOrEqual(spent);
        expect(spent).toBeLessThanOrEqual(budget + biggest);
      }),
      { numRuns: 40 },
    );
  });
});
