/**
 * Subagent definitions: the Markdown + YAML format, discovery of definition folders, the
 * shipped built-ins and the {@link AgentManager} behind `engine.agents`.
 *
 * @module
 */
export { AGENT_NAME_PATTERN, type AgentDefinition, type AgentOrigin, type AgentSource } from './agent-definition.js';
export type { AgentDiagnostic } from './agent-diagnostic.js';
export { DefinitionError } from './definition-error.js';
export { UnknownAgentError } from './unknown-agent-error.js';
export { parseAgentMarkdown } from './parse-agent-markdown.js';
export { formatAgentMarkdown } from './format-agent-markdown.js';
export { defineAgent, type AgentInput } from './define-agent.js';
export { discoverAgents, type AgentDir, type DiscoveryResult } from './discover-agents.js';
export { MAX_AGENT_DEPTH } from './list-markdown-files.js';
export { builtinAgentsDir, standardAgentDirs, type StandardAgentDirsOptions } from './agent-dirs.js';
export { AgentManager, type AgentManagerOptions } from './agent-manager.js';
export { DELEGATION_TOOL_NAMES, isDelegationTool } from './delegation-tool-names.js';
export { narrowTools, type NarrowToolsInput } from './narrow-tools.js';
