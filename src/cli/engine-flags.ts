import { statSync } from 'node:fs';
import { resolve } from 'node:path';
import { resolveWorkspace } from '../agent/resolve-workspace.js';
import { createDemoModel } from '../demo/demo-model.js';
import { HarnessEngine } from '../engine/harness-engine.js';
import { errnoOf } from '../errors/errno-of.js';
import { errorMessage } from '../errors/error-message.js';
import type { HarnessEngineOptions } from '../engine/engine-options.js';
import type { ChatModel } from '../model/chat-model.js';
import { OpenAIChatModel } from '../model/openai-chat-model.js';
import { MAX_TIMER_MS } from '../validation/max-timer.js';
import type { CliIO } from './cli-io.js';
import { CliUsageError } from './cli-usage-error.js';
import type { FlagConfig } from './flag-without-value.js';
import { integerFlag } from './integer-flag.js';
import { MAX_DELEGATION_DEPTH } from '../validation/json-depth.js';
import { mcpServersFromFiles } from './mcp-config-file.js';
import { givenModelSettingFlags, MODEL_SETTING_FLAGS, modelSettingsFromFlags, type ModelSettingFlagValues } from './model-setting-flags.js';
import { PASS_ENV_FLAGS, passEnvOption } from './pass-env-flag.js';

// The parseArgs option tables the commands share, so `run`, `serve` and `worker` (and
// `agents`, for what it reads) spell and check a flag the same way.

/** Which model runs: `--demo`, or an OpenAI-compatible one, with its settings and retries. */
export const MODEL_FLAGS = {
  demo: { type: 'boolean' },
  model: { type: 'string' },
  'base-url': { type: 'string' },
  'api-key': { type: 'string', secret: true, env: 'OPENAI_API_KEY' },
  ...MODEL_SETTING_FLAGS,
} as const satisfies Readonly<Record<string, FlagConfig>>;

/** What the engine is made of: where its tools work, its definitions, its MCP servers. */
export const WORKSPACE_FLAGS = {
  workspace: { type: 'string' },
  'agent-dir': { type: 'string', multiple: true },
  'mcp-config': { type: 'string', multiple: true },
} as const;

/** The engine's limits. */
export const LIMIT_FLAGS = {
  'max-tasks': { type: 'string' },
  'max-steps': { type: 'string' },
  'max-depth': { type: 'string' },
} as const;

/** Every engine flag: what an engine that runs agents takes (and its commands' `--pass-env`). */
export const ENGINE_FLAGS = { ...WORKSPACE_FLAGS, ...LIMIT_FLAGS, ...PASS_ENV_FLAGS } as const;

/** Parsed {@link MODEL_FLAGS}. */
export interface ModelFlagValues extends ModelSettingFlagValues {
  readonly demo?: boolean | undefined;
  readonly model?: string | undefined;
  readonly 'base-url'?: string | undefined;
  readonly 'api-key'?: string | undefined;
}

/** Parsed {@link ENGINE_FLAGS}, or part of them: a flag a command lacks is simply unset. */
export interface EngineFlagValues {
  readonly workspace?: string | undefined;
  readonly 'agent-dir'?: readonly string[] | undefined;
  readonly 'mcp-config'?: readonly string[] | undefined;
  readonly 'max-tasks'?: string | undefined;
  readonly 'max-steps'?: string | undefined;
  readonly 'max-depth'?: string | undefined;
  readonly 'pass-env'?: readonly string[] | undefined;
}

/** The engine options the flags set; `workspace` is always resolved. */
export type EngineFlagOptions = Pick<HarnessEngineOptions, 'homeDir' | 'multitaskMaxTasks' | 'maxSteps' | 'maxDepth' | 'agentDirs' | 'mcpServers' | 'tools'> & {
  readonly workspace: string;
};

/**
 * The model the flags name: the offline demo with `--demo`, else an OpenAI-compatible model
 * from `--model`, `--base-url`, `--api-key` or their environment variables. Bad usage
 * (a {@link CliUsageError}) when no model or key can be found, or the model is blank.
 *
 * @example
 * ```ts
 * const model = modelFromFlags({ model: 'qwen2.5', 'base-url': 'http://localhost:8080/v1' }, processIO());
 * ```
 */
export function modelFromFlags(values: ModelFlagValues, io: CliIO): ChatModel {
  if (!values.demo) return openaiModel(values, io);
  const given = givenModelSettingFlags(values);
  if (given.length) throw new CliUsageError(`${given.join(', ')} set a --model's requests; the --demo model is scripted and takes none`);
  return createDemoModel(demoSpeed(io));
}

/**
 * The engine options the flags set, checked: a bad number, `--mcp-config` file or
 * `--pass-env` name, or a `--workspace` or `--agent-dir` that names no folder, is a {@link CliUsageError},
 * thrown before anything starts (before `worker` and `serve --redis` reach Redis). The
 * workspace is resolved against the CLI's folder, as are the `--mcp-config` files.
 *
 * @example
 * ```ts
 * const engine = new HarnessEngine({ model, ...engineOptionsFromFlags({ 'max-steps': '10', 'mcp-config': ['mcp.json'] }, io) });
 * ```
 */
export function engineOptionsFromFlags(values: EngineFlagValues, io: CliIO): EngineFlagOptions {
  const mcpConfigs = values['mcp-config'] ?? [];
  const workspace = resolve(io.cwd, values.workspace ?? '.');
  asUsage(() => resolveWorkspace(workspace));
  return {
    workspace,
    // The CLI's environment decides whose ~/.rxharness/agents is read (a test's fake HOME).
    ...(io.env.HOME ? { homeDir: io.env.HOME } : {}),
    ...(values['max-tasks'] !== undefined ? { multitaskMaxTasks: integerFlag('--max-tasks', values['max-tasks'], 0) } : {}),
    ...(values['max-steps'] !== undefined ? { maxSteps: integerFlag('--max-steps', values['max-steps'], 1) } : {}),
    ...(values['max-depth'] !== undefined ? { maxDepth: integerFlag('--max-depth', values['max-depth'], 0, MAX_DELEGATION_DEPTH) } : {}),
    ...(values['agent-dir'] ? { agentDirs: existingFolders(values['agent-dir'], workspace) } : {}),
    ...(mcpConfigs.length > 0 ? { mcpServers: mcpServersFromFiles(mcpConfigs, io.cwd) } : {}),
    ...passEnvOption(values['pass-env'], io),
  };
}

/**
 * The `--agent-dir` folders, each checked to be one: discovery skips a missing folder
 * silently (the standard ones often are), so a misspelt one the user named would be too.
 * Relative ones are read from the workspace, as the engine reads them.
 */
function existingFolders(dirs: readonly string[], workspace: string): readonly string[] {
  for (const dir of dirs) {
    const folder = resolve(workspace, dir);
    const usage = (problem: string): CliUsageError => new CliUsageError(`--agent-dir ${dir}: ${problem} (${folder}; a relative folder is read from the workspace)`);
    let found: boolean;
    try {
      found = statSync(folder).isDirectory();
    } catch (e) {
      throw usage(errnoOf(e) === 'ENOENT' ? 'no such folder' : `cannot read it: ${errorMessage(e)}`);
    }
    if (!found) throw usage('not a folder');
  }
  return dirs;
}

function openaiModel(values: ModelFlagValues, io: CliIO): ChatModel {
  // Checked first: a bad value is reported even when the model or key is missing too.
  const options = modelSettingsFromFlags(values);
  const id = values.model ?? io.env.RXHARNESS_MODEL;
  if (!id) throw new CliUsageError('no model: pass --model M or set RXHARNESS_MODEL (or use --demo to run offline)');
  // Only spaces names no model: bad usage, named, before any request (the model would refuse it anyway).
  if (id.trim() === '') throw new CliUsageError(`${values.model !== undefined ? '--model' : 'RXHARNESS_MODEL'} is blank: name the model, e.g. --model gpt-4o-mini`);
  const baseURL = values['base-url'] ?? io.env.OPENAI_BASE_URL;
  const apiKey = values['api-key'] ?? io.env.OPENAI_API_KEY;
  // A local server (a base URL) needs no key; OpenAI's own API does.
  if (!apiKey && !baseURL) throw new CliUsageError('no API key: pass --api-key K or set OPENAI_API_KEY (a local server needs none: pass --base-url), or use --demo');
  return new OpenAIChatModel({ model: id, ...(baseURL ? { baseURL } : {}), ...(apiKey ? { apiKey } : {}), ...options });
}

/**
 * `RXHARNESS_DEMO_DELAY_MS` slows or speeds the demo's streaming (tests set it to 0); at most
 * `MAX_TIMER_MS`, the longest a timer holds (a longer one fires after 1 ms, with a warning).
 */
function demoSpeed(io: CliIO): { chunkDelayMs?: number } {
  const raw = io.env.RXHARNESS_DEMO_DELAY_MS;
  return raw === undefined ? {} : { chunkDelayMs: integerFlag('RXHARNESS_DEMO_DELAY_MS', raw, 0, MAX_TIMER_MS) };
}

/**
 * The engine the commands build from flags: an option the engine refuses came from a flag, so
 * it is bad usage (exit 2), as a bad flag is.
 *
 * @example
 * ```ts
 * const engine = newEngine({ model, ...engineOptionsFromFlags(values, io) });
 * ```
 */
export function newEngine(options: HarnessEngineOptions): HarnessEngine {
  return asUsage(() => new HarnessEngine(options));
}

function asUsage<T>(make: () => T): T {
  try {
    return make();
  } catch (e) {
    throw e instanceof CliUsageError ? e : new CliUsageError(errorMessage(e));
  }
}
