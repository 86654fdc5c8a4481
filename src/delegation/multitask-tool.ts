import { finalize, map, merge, of, toArray } from 'rxjs';
import { defineTool } from '../tools/define-tool.js';
import type { Tool, ToolResult } from '../tools/tool.js';
import { toolError } from '../tools/tool-error.js';
import type { AgentSpec, Delegation } from './delegation-types.js';
import { multitaskToolDescription } from './delegation-prompts.js';
import { perAgentList } from './per-agent-list.js';
import { depthRefusal } from './depth-guard.js';
import { shareResultBudget } from './multitask-budget.js';
import { createTaskPool } from './task-pool.js';
import { formatMultitaskResults, type TaskResultFields } from './task-result-format.js';
import { multitaskModelParameters, multitaskParameters, type MultitaskArgs } from './task-schemas.js';

/**
 * The `multitask` tool of one agent: runs every task through a p-limit pool of
 * `delegation.poolSize` (one pool per call; 0 = no limit) and returns
 * `<multitask_results>` in index order, their contents cut to share one budget
 * (`shareResultBudget`). A list where some tasks give an `index` and others do not is refused,
 * as is one index used twice. Each task's failure is its own result; the others are kept. Unsubscribing clears the queue (queued tasks never start) and stops the
 * running children.
 *
 * @example
 * ```ts
 * const tool = createMultitaskTool(spec, delegation);
 * ```
 */
export function createMultitaskTool(parent: AgentSpec, delegation: Delegation): Tool<MultitaskArgs> {
  const description = perAgentList((agents) => multitaskToolDescription(agents, delegation.poolSize));
  return defineTool({
    name: 'multitask',
    // Read at every step: the agents visible now.
    get description() {
      return description(delegation.visibleAgents());
    },
    input: multitaskParameters(delegation.maxItems),
    get modelParameters() {
      return multitaskModelParameters(delegation.maxItems, delegation.callableAgentNames(parent));
    },
    // The child run is bounded by its own steps and tool timeouts; the engine's per-call
    // limit would cut this call (started first) before a hanging child tool timed out.
    timeoutMs: Number.POSITIVE_INFINITY,
    execute(args, context) {
      const refused = depthRefusal(parent, delegation, 'multitask');
      if (refused) return of(refused);
      // Solon's dialect: items without `index` take their places in the list (1, 2, ...). Only
      // all of them: a place could clash with an index given, a duplicate the model never wrote.
      const given = args.tasks.filter((task) => task.index !== undefined).length;
      if (given > 0 && given < args.tasks.length) {
        return of(toolError(`multitask refused: ${given} of the ${args.tasks.length} tasks give an index and the others do not; give every task its own index from 1, or leave every index out.`));
      }
      const indexed = args.tasks.map((task, i) => ({ ...task, index: task.index ?? i + 1 }));
      // One pass with a set: a list of thousands (`multitaskMaxItems`) costs no quadratic search.
      const seen = new Set<number>();
      const duplicate = indexed.find((t) => seen.size === seen.add(t.index).size);
      if (duplicate) {
        return of(toolError(`multitask refused: index ${duplicate.index} is used twice; give every task its own index from 1 (or leave every index out).`));
      }
      // The pool: p-limit, at most poolSize children at once, the rest wait in order (one
      // pool per call, so a child that delegates again never waits for a slot its parent
      // holds). Every task is subscribed at once and waits inside the pool; unsubscribing
      // drops the queue (queued tasks never start) and stops the running children.
      const pool = createTaskPool(delegation.poolSize);
      return merge(
        ...indexed.map((task) => {
          const request = { agentName: task.agent_name, prompt: task.prompt, description: task.description, index: task.index, multitask: true };
          // Without its `error` (the text has it): each entry is held until the last task ends.
          return delegation.runTask(parent, request, context, pool).pipe(map(({ error: _held, ...result }): TaskResultFields => ({ ...result, index: task.index })));
        }),
      ).pipe(
        finalize(() => pool.clear()),
        toArray(),
        map((results): ToolResult => {
          // Cut together: N entries of maxResultChars each would be N times a task's result.
          const text = formatMultitaskResults(shareResultBudget(results, delegation.maxResultChars));
          // The call fails only when nothing succeeded; partial failures are in the results.
          return results.every((r) => r.status === 'failure') ? { text, error: `all ${results.length} tasks failed` } : { text };
        }),
      );
    },
  });
}
