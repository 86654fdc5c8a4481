export type { AgentSpec, Delegation, TaskRequest } from './delegation-types.js';
export { AgentFactory, type AgentFactoryOptions } from './agent-factory.js';
export { TaskRunner, type TaskRunnerOptions } from './task-runner.js';
export {
  cdata,
  escapeXml,
  formatMultitaskResults,
  formatTaskResult,
  truncate,
  truncationMarker,
  type TaskOutcome,
  type TaskResultFields,
} from './task-result-format.js';
export { TaskTracker, type TaskInfo, type TaskState } from './task-tracker.js';
export { createGenerateTool, type GenerateArgs, type GenerateDeps } from './generate-tool.js';
export { createTaskTool } from './task-tool.js';
export { createMultitaskTool } from './multitask-tool.js';
export type { TaskArgs, MultitaskArgs } from './task-schemas.js';
