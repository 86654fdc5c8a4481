import { mkdir, mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { from, lastValueFrom } from 'rxjs';
import type { AgentEvent } from '../../src/events/agent-event.js';
import type { RunMetrics } from '../../src/events/run-metrics.js';
import type { Tool, ToolContext, ToolResult } from '../../src/tools/tool.js';

/** A real {@link ToolContext} plus what the test needs to drive and observe it. */
export interface TestToolContext extends ToolContext {
  /** Aborting it aborts `signal`. */
  readonly controller: AbortController;
  /** Every event passed to `emit`, in order. */
  readonly events: AgentEvent[];
  /** Every metrics object passed to `addMetrics`, in order. */
  readonly metrics: RunMetrics[];
}

/**
 * Builds a tool context with a real AbortController and collecting `emit`/`addMetrics`.
 * Pass `workspace` (usually from {@link makeWorkspace}); any field can be overridden, but an
 * overridden `signal` is no longer the one `controller` aborts.
 */
export function createToolContext(overrides: Partial<ToolContext> = {}): TestToolContext {
  const controller = new AbortController();
  const events: AgentEvent[] = [];
  const metrics: RunMetrics[] = [];
  return {
    signal: controller.signal,
    workspace: process.cwd(),
    callId: 'call-1',
    step: 1,
    runId: 'run-1',
    sessionId: 'session-1',
    rootSessionId: 'session-1',
    rootRunId: overrides.runId ?? 'run-1',
    agentName: 'main',
    background: false,
    streaming: true,
    emit: (event) => {
      events.push(event);
    },
    addMetrics: (value) => {
      metrics.push(value);
    },
    ...overrides,
    controller,
    events,
    metrics,
  };
}

/**
 * A tool context in `workspace` whose run is cancelled as the tool judges the path again
 * (`judgePath`), just before it opens or creates the file: the cancel point of the tools'
 * cancel tests.
 */
export function cancelledWhileJudged(workspace: string): ToolContext {
  const context = createToolContext({ workspace });
  return {
    ...context,
    judgePath: () => {
      context.controller.abort();
      return 'allow';
    },
  };
}

/** A temporary folder (realpath'd, as the engine passes workspaces) and its cleanup. */
export interface TestWorkspace {
  readonly dir: string;
  /**
   * A home folder of its own for the engine's `homeDir` ({@link homeBeside}): never the
   * workspace, whose definitions are then read as the user's, trusted (see `standardAgentDirs`).
   */
  readonly home: string;
  /** Writes a file below `dir`, creating folders; returns its absolute path. */
  file(relativePath: string, content: string | Uint8Array): Promise<string>;
  cleanup(): Promise<void>;
}

/**
 * `<dir>-home`: the home folder of a test engine on the workspace `dir`, beside it, outside it.
 * Not made: the engine only reads `~/.rxharness/` from a home, so a missing one is an empty one.
 * A test writing there removes it (as `makeWorkspace`'s `cleanup` does).
 */
export function homeBeside(dir: string): string {
  return `${dir}-home`;
}

/** Creates an empty temporary workspace. Call `cleanup` in `afterEach`. */
export async function makeWorkspace(prefix = 'rxharness-ws-'): Promise<TestWorkspace> {
  const dir = await realpath(await mkdtemp(join(tmpdir(), prefix)));
  const home = homeBeside(dir);
  return {
    dir,
    home,
    async file(relativePath, content) {
      const absolute = join(dir, relativePath);
      await mkdir(dirname(absolute), { recursive: true });
      await writeFile(absolute, content);
      return absolute;
    },
    cleanup: async () => {
      await Promise.all([dir, home].map((folder) => rm(folder, { recursive: true, force: true })));
    },
  };
}

/** Runs a tool directly (no executor) and normalises its answer to a {@link ToolResult}. */
export async function runTool<Args extends Record<string, unknown>>(
  tool: Tool<Args>,
  args: Args,
  context: ToolContext,
): Promise<ToolResult> {
  const answer = tool.execute(args, context);
  const result = typeof answer === 'string' || isToolResult(answer) ? answer : await lastValueFrom(from(answer));
  return typeof result === 'string' ? { text: result } : result;
}

function isToolResult(value: unknown): value is ToolResult {
  return typeof value === 'object' && value !== null && typeof (value as ToolResult).text === 'string';
}
