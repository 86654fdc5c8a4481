import { map, of } from 'rxjs';
import { defineTool } from '../tools/define-tool.js';
import type { Tool } from '../tools/tool.js';
import type { AgentSpec, Delegation } from './delegation-types.js';
import { taskToolDescription } from './delegation-prompts.js';
import { perAgentList } from './per-agent-list.js';
import { depthRefusal } from './depth-guard.js';
import { formatTaskResult } from './task-result-format.js';
import { TASK_PARAMETERS, taskModelParameters, type TaskArgs } from './task-schemas.js';

/**
 * The `task` tool of one agent: delegates one subtask to a subagent and returns its
 * `<task_result>`. Its description lists the agents visible when it is read (the run reads
 * it at every step, so an agent made by `generate` shows up at the next one).
 *
 * @example
 * ```ts
 * const tool = createTaskTool(spec, delegation);
 * ```
 */
export function createTaskTool(parent: AgentSpec, delegation: Delegation): Tool<TaskArgs> {
  const description = perAgentList(taskToolDescription);
  return defineTool({
    name: 'task',
    get description() {
      return description(delegation.visibleAgents());
    },
    input: TASK_PARAMETERS,
    // Read at every step: the agents that may be named now.
    get modelParameters() {
      return taskModelParameters(delegation.callableAgentNames(parent));
    },
    subject: (args) => args.agent_name,
    // The child run is bounded by its own steps and tool timeouts; the engine's per-call
    // limit would cut this call (started first) before a hanging child tool timed out.
    timeoutMs: Number.POSITIVE_INFINITY,
    execute(args, context) {
      const refused = depthRefusal(parent, delegation, 'task');
      if (refused) return of(refused);
      const request = {
        agentName: args.agent_name,
        prompt: args.prompt,
        description: args.description,
        index: 1,
        multitask: false,
        ...(args.background ? { background: true } : {}),
        ...(args.task_id ? { resumeTaskId: args.task_id } : {}),
      };
      return delegation.runTask(parent, request, context).pipe(
        map((result) => ({
          text: formatTaskResult(result),
          ...(result.error === undefined ? {} : { error: result.error }),
        })),
      );
    },
  });
}
