export type { Tool, ToolContext, ToolResult } from './tool.js';
export { defineTool, type ToolDefinition } from './define-tool.js';
export type { InferToolArgs, JsonSchemaSideMissing, StandardToolSchema, UsableToolInput } from './tool-input.js';
export * from './builtin/index.js';
export { resolveWorkspacePath, type WorkspacePath } from './workspace-path.js';
