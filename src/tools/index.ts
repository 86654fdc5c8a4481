export type { Tool, ToolContext, ToolResult } from './tool.js';
export * from './builtin/index.js';
export { resolveWorkspacePath, type WorkspacePath } from './workspace-path.js';
