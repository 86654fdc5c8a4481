import { ApprovalGrants } from '../agent/approval-grants.js';
import { DEFAULT_MAX_DEPTH, DEFAULT_MAX_STEPS, DEFAULT_TOOL_TIMEOUT_MS } from '../agent/defaults.js';
import { whenReleased } from '../agent/session-claims.js';
import { AgentFactory } from '../delegation/agent-factory.js';
import { MAIN_AGENT_PROMPT } from '../delegation/delegation-prompts.js';
import { delegationTools } from '../delegation/delegation-tools.js';
import type { AgentSpec } from '../delegation/delegation-types.js';
import { TaskRunner } from '../delegation/task-runner.js';
import { DEFAULT_MULTITASK_MAX_ITEMS } from '../delegation/task-schemas.js';
import { TaskTracker } from '../delegation/task-tracker.js';
import { parsePermissionRules } from '../permission/parse-permission-rules.js';
import { PermissionPolicy } from '../permission/permission-policy.js';
import { requestLimiter } from '../model/limit-requests.js';
import { MemorySessionStore } from '../session/memory-session-store.js';
import type { SessionStore } from '../session/session-store.js';
import { homedir } from 'node:os';
import { standardAgentDirs } from '../subagent/agent-dirs.js';
import { standardSkillDirs } from '../subagent/skills/skill.js';
import { AgentManager } from '../subagent/agent-manager.js';
import { DELEGATION_TOOL_NAMES } from '../subagent/delegation-tool-names.js';
import { createBuiltinTools } from '../tools/builtin/index.js';
import type { Tool } from '../tools/tool.js';
import { assertCheckableParameters } from '../tools/tool-input.js';
import type { ApprovalHandler } from '../permission/approval.js';
import type { HarnessEngineOptions } from './engine-options.js';
import { McpServers } from '../mcp/mcp-servers.js';
import { mcpToolPrefix } from '../mcp/mcp-tool-name.js';
import { childPlacement } from './harness-backend.js';
import { ephemeralTaskSessions } from './ephemeral-task-sessions.js';
import { forgettingSessions } from './forgetting-sessions.js';
import { deletedElsewhere } from './deleted-elsewhere.js';
import type { RunRegistry } from '../runs/run-registry.js';

/** The parts of an engine's delegation tree, wired. */
export interface Tree {
  readonly agents: AgentManager;
  readonly tasks: TaskTracker;
  /** The store, whose `delete` also forgets the conversation's grants, background results and finished runs (see `forgettingSessions`). */
  readonly sessions: SessionStore;
  readonly grants: ApprovalGrants;
  /** Forgets what the engine keeps of a conversation in memory: its "always" approvals and undelivered background results. */
  readonly forget: (sessionId: string) => void;
  /**
   * Notes a run without a `sessionId` as it starts; what it returns ends it: {@link Tree.forget},
   * and its tasks' sessions are deleted as they settle (`ephemeralTaskSessions`).
   */
  readonly beginEphemeral: (sessionId: string) => () => void;
  readonly factory: AgentFactory;
  readonly runner: TaskRunner;
  /** The main agent's place in the tree. */
  readonly main: AgentSpec;
  /** The `mcpServers`, when there are any: started by the runs that use them, closed with the engine. */
  readonly mcp: McpServers | undefined;
  /** The names of the engine's own tools: the toolbox's, the delegation tools', `mcp__<server>__*` for each MCP server. */
  readonly knownTools: readonly string[];
}

/**
 * Wires an engine's tree from its (checked) options, every default applied here once; `approve`
 * answers every agent's approvals; `runs` (the engine's registry) forgets a deleted conversation's finished runs.
 */
export function buildTree(options: HarnessEngineOptions, workspace: string, approve: ApprovalHandler | undefined, runs?: Pick<RunRegistry, 'forgetSession'>): Tree {
  const rules = parsePermissionRules(options.permissionRules ?? [], 'permissionRules');
  const disabled = options.disabledTools ?? [];
  const toolbox = toolboxOf(options.tools ?? [], disabled);
  const servers = Object.keys(options.mcpServers ?? {});
  const mcp = servers.length > 0 ? new McpServers(options.mcpServers!, workspace) : undefined;
  for (const name of toolbox.keys()) {
    const server = servers.find((s) => name.startsWith(mcpToolPrefix(s)));
    if (server) throw new TypeError(`HarnessEngine: the tool "${name}" takes a name of the MCP server "${server}"'s tools; name it differently`);
  }
  const maxDepth = options.maxDepth ?? DEFAULT_MAX_DEPTH;
  const maxSteps = options.maxSteps ?? DEFAULT_MAX_STEPS;
  const poolSize = options.multitaskMaxTasks ?? 5;
  const delegates = (options.subagentEnabled ?? true) && maxDepth > 0;
  // An MCP server's tools are known by name once it runs; until then, by its prefix.
  const knownTools = [...toolbox.keys(), ...DELEGATION_TOOL_NAMES, ...servers.map((s) => `${mcpToolPrefix(s)}*`)];
  const agents = new AgentManager({
    dirs: standardAgentDirs({ workspace, agentDirs: options.agentDirs, home: options.homeDir }),
    knownTools,
    disabledTools: disabled,
    trustWorkspaceAgents: options.trustWorkspaceAgents,
    skillDirs: standardSkillDirs({ workspace, home: options.homeDir ?? homedir() }),
  });
  // With a backend, sessions and task state are shared, and children may run on workers.
  const tasks = options.backend?.createTracker(options.taskTrackerLimits) ?? new TaskTracker(options.taskTrackerLimits);
  const grants = new ApprovalGrants();
  const forget = (sessionId: string): void => {
    grants.clear(sessionId);
    tasks.forgetSession(sessionId);
  };
  // Every part of the tree holds the forgetting view: no delete through the engine leaves them behind.
  const stopTasks = (sessionId: string): Promise<void> => tasks.cancelAll({ backgroundOnly: true, sessionId });
  const store = options.sessions ?? options.backend?.sessions ?? new MemorySessionStore();
  // Another engine sharing a durable store (a FileSessionStore folder) may delete a conversation
  // this one holds tasks of: the store's task info tells (see `deletedElsewhere`), unless the
  // store tells each delete itself (`watchDeletes`, as MemorySessionStore does: `deletedInProcess`).
  const checksElsewhere = !options.backend && typeof store.watchDeletes !== 'function' && typeof store.loadTaskInfo === 'function';
  // A deleted conversation also loses its finished runs (listed and replayable by id
  // otherwise, under the id a new conversation may take); an ephemeral run's end does not.
  const forgetConversation = (sessionId: string): void => {
    forget(sessionId);
    runs?.forgetSession(sessionId);
  };
  const forgetDeleted = async (sessionId: string): Promise<void> => {
    await stopTasks(sessionId);
    forgetConversation(sessionId);
  };
  const sessions = forgettingSessions(store, forgetConversation, stopTasks, checksElsewhere ? deletedElsewhere(tasks, store, forgetDeleted) : undefined);
  // Every run of the tree claims its session through this view: a stop waits for its children's releases.
  tasks.awaitReleases((taskId) => whenReleased(sessions, taskId));
  const taskSessions = ephemeralTaskSessions(tasks, store);
  const beginEphemeral = (sessionId: string): (() => void) => {
    const drop = taskSessions(sessionId);
    return () => {
      forget(sessionId);
      drop();
    };
  };
  // maxConcurrentRequests: every model of the engine shares one limiter.
  const limiter = options.maxConcurrentRequests === undefined ? undefined : requestLimiter(options.maxConcurrentRequests);
  const model = limiter ? limiter.wrap(options.model) : options.model;
  const models = limiter ? Object.fromEntries(Object.entries(options.models ?? {}).map(([name, m]) => [name, limiter.wrap(m)])) : (options.models ?? {});
  const timeout = options.approvalTimeoutMs === undefined ? {} : { approvalTimeoutMs: options.approvalTimeoutMs };
  const remote = options.backend?.childLauncher({ approve, model, models, ...timeout });
  // The factory makes an agent's delegation tools, which run tasks through the runner, which
  // builds children with the factory: the cycle closes through this function.
  const factory: AgentFactory = new AgentFactory({
    agents,
    toolbox,
    models,
    sessions,
    workspace,
    approve,
    grants,
    toolTimeoutMs: options.toolTimeoutMs ?? DEFAULT_TOOL_TIMEOUT_MS,
    ...(options.approvalTimeoutMs !== undefined ? { approvalTimeoutMs: options.approvalTimeoutMs } : {}),
    maxDepth,
    maxSteps,
    poolSize,
    disabledTools: disabled,
    tokenBudget: options.tokenBudget,
    // With a backend, a tree's budget pool is in Redis, where its workers draw from it too.
    ...(options.backend?.newTokenBudget ? { newBudget: (limit: number) => options.backend!.newTokenBudget!(limit) } : {}),
    delegationTools: (spec) => delegationTools(spec, { delegation: runner, agents, knownTools, workspace }),
    ...(mcp ? { mcp } : {}),
  });
  const runner = new TaskRunner({
    factory,
    agents,
    sessions,
    tracker: tasks,
    maxDepth,
    poolSize,
    maxItems: options.multitaskMaxItems ?? DEFAULT_MULTITASK_MAX_ITEMS,
    ...(options.maxBackgroundTasks !== undefined ? { maxBackgroundTasks: options.maxBackgroundTasks } : {}),
    maxResultChars: options.maxResultChars ?? DEFAULT_MAX_RESULT_CHARS,
    ...(remote ? { launcher: childPlacement(remote, options.distributeTasks ?? false)! } : {}),
    ...(options.a2a ? { a2a: options.a2a } : {}),
  });
  const main: AgentSpec = {
    name: 'main',
    depth: 0,
    model,
    instructions: options.instructions ?? MAIN_AGENT_PROMPT,
    toolNames: [...toolbox.keys(), ...(delegates ? DELEGATION_TOOL_NAMES.filter((n) => !disabled.includes(n)) : [])],
    policy: new PermissionPolicy({ rules }),
    maxSteps,
    ...(options.tokenBudget !== undefined ? { tokenBudget: options.tokenBudget } : {}),
    // Its MCP tools: every server's, minus the disabled ones, chosen when each run starts.
    ...(mcp ? { mcpNarrowing: [{ disabledTools: disabled }] } : {}),
  };
  return { agents, tasks, sessions, grants, forget, beginEphemeral, factory, runner, main, mcp, knownTools };
}

/** Child output longer than this is cut in a task result. */
export const DEFAULT_MAX_RESULT_CHARS = 12_000;

/** Built-ins, replaced by custom tools of the same name, minus disabled ones. */
function toolboxOf(custom: readonly Tool[], disabled: readonly string[]): Map<string, Tool> {
  const seen = new Set<string>();
  for (const tool of custom) {
    if (seen.has(tool.name)) throw new TypeError(`HarnessEngine: two tools are named "${tool.name}"`);
    if (DELEGATION_TOOL_NAMES.includes(tool.name)) {
      throw new TypeError(`HarnessEngine: "${tool.name}" is a delegation tool name; name your tool differently`);
    }
    seen.add(tool.name);
    // A hand-written tool's calls are checked against its `parameters`: refused now, as
    // `defineTool` refuses its `input`, rather than at each call or never.
    assertCheckableParameters('HarnessEngine', tool);
  }
  const toolbox = new Map<string, Tool>();
  for (const tool of [...createBuiltinTools(), ...custom]) {
    if (!disabled.includes(tool.name)) toolbox.set(tool.name, tool);
  }
  return toolbox;
}
