import type { AgentCard, AgentSkill } from '@a2a-js/sdk';
import type { AgentDefinition } from '../../subagent/agent-definition.js';

/** What the agent card says about the served agent; the rest comes from the engine. */
export interface A2ACardOptions {
  /** The agent's name on its card. Default `rxharness`. */
  readonly name?: string;
  /** What the agent does. Default: a ReAct agent that delegates to the subagents its skills list. */
  readonly description?: string;
  /** The agent's version on its card. Default `1.0.0`. */
  readonly version?: string;
}

const DEFAULT_DESCRIPTION =
  'A ReAct agent (rxharness) working in its workspace with tools, delegating bounded subtasks to the subagents listed as its skills.';

/**
 * The agent card of the main agent served at `endpoint`: one skill per subagent it can
 * delegate to (name and description from its definition), streaming, no push
 * notifications; the JSON-RPC interface in A2A 1.0 and, at the same URL, 0.3 (whose
 * method names are `message/send`, `message/stream`, `tasks/get`, `tasks/cancel`). With
 * `bearer`, the card says requests need `Authorization: Bearer <token>`.
 */
export function agentCardOf(agents: readonly AgentDefinition[], endpoint: string, bearer: boolean, options: A2ACardOptions = {}): AgentCard {
  return {
    name: options.name ?? 'rxharness',
    description: options.description ?? DEFAULT_DESCRIPTION,
    supportedInterfaces: [
      { url: endpoint, protocolBinding: 'JSONRPC', tenant: '', protocolVersion: '1.0' },
      { url: endpoint, protocolBinding: 'JSONRPC', tenant: '', protocolVersion: '0.3' },
    ],
    provider: undefined,
    version: options.version ?? '1.0.0',
    capabilities: { streaming: true, pushNotifications: false, extensions: [], extendedAgentCard: false },
    securitySchemes: bearer
      ? { bearer: { scheme: { $case: 'httpAuthSecurityScheme', value: { description: 'The token the server printed (rxharness serve) or was given', scheme: 'Bearer', bearerFormat: '' } } } }
      : {},
    securityRequirements: bearer ? [{ schemes: { bearer: { list: [] } } }] : [],
    defaultInputModes: ['text/plain'],
    defaultOutputModes: ['text/plain'],
    skills: agents.map(skillOf),
    signatures: [],
  };
}

function skillOf(agent: AgentDefinition): AgentSkill {
  return {
    id: agent.name,
    name: agent.name,
    description: agent.description,
    tags: ['subagent'],
    examples: [],
    inputModes: ['text/plain'],
    outputModes: ['text/plain'],
    securityRequirements: [],
  };
}
