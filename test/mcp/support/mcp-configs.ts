/**
 * `mcpServers` entries for the tests: our SDK server over stdio (run through tsx from this
 * repository, whatever the workspace) and the real `@modelcontextprotocol/server-filesystem`
 * (its installed script, no npx, no network).
 *
 * @module
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { McpStdioServerConfig } from '../../../src/mcp/mcp-server-config.js';

/** The repository root: tsx and the SDK resolve from here. */
export const REPO = fileURLToPath(new URL('../../../', import.meta.url));

const SCRIPT = fileURLToPath(new URL('./stdio-test-server.ts', import.meta.url));

/** Our stdio server; `env` switches its behaviours (see stdio-test-server.ts). */
export function ourStdioServer(env: Record<string, string> = {}, extra: Partial<McpStdioServerConfig> = {}): McpStdioServerConfig {
  return { command: process.execPath, args: ['--import', 'tsx', SCRIPT], cwd: REPO, env, ...extra };
}

/**
 * {@link ourStdioServer}, started through `sh`, which appends `pid <pid>` to the marks file
 * (`env` must hold {@link Marks.env}) and then `exec`s node in the same process. The pid is
 * so known within milliseconds of the spawn: node with tsx can take seconds to reach the
 * server's own mark on a busy machine, and a start that times out first kills it unmarked.
 */
export function pidMarkedStdioServer(env: Record<string, string>, extra: Partial<McpStdioServerConfig> = {}): McpStdioServerConfig {
  const server = ourStdioServer(env, extra);
  const markThenExec = 'echo "pid $$" >> "$MCP_TEST_MARKS" && exec "$0" "$@"';
  return { ...server, command: '/bin/sh', args: ['-c', markThenExec, server.command, ...(server.args ?? [])] };
}

/** The filesystem server from the registry, allowed to work in `dir`. */
export function filesystemServer(dir: string): McpStdioServerConfig {
  return { command: process.execPath, args: [join(REPO, 'node_modules/@modelcontextprotocol/server-filesystem/dist/index.js'), dir] };
}

/** A marks file our stdio server writes to (`MCP_TEST_MARKS`), and reading it back. */
export interface Marks {
  readonly env: Record<string, string>;
  lines(): Promise<string[]>;
  /** Resolves when some line matches, or rejects after `ms`. */
  waitFor(pattern: RegExp, ms?: number): Promise<string>;
  cleanup(): Promise<void>;
}

/** A fresh marks file in a temp folder. */
export async function marksFile(): Promise<Marks> {
  const dir = await mkdtemp(join(tmpdir(), 'rxharness-mcp-marks-'));
  const file = join(dir, 'marks.txt');
  const lines = async (): Promise<string[]> => (await readFile(file, 'utf8').catch(() => '')).split('\n').filter(Boolean);
  return {
    env: { MCP_TEST_MARKS: file },
    lines,
    waitFor: async (pattern, ms = 10_000) => {
      const end = Date.now() + ms;
      for (;;) {
        const found = (await lines()).find((l) => pattern.test(l));
        if (found) return found;
        if (Date.now() > end) throw new Error(`no mark matching ${String(pattern)} in ${ms} ms; marks: ${(await lines()).join(' | ')}`);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    },
    cleanup: () => rm(dir, { recursive: true, force: true }),
  };
}

/** Whether a process with this pid still exists. */
export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

const HOSTILE = fileURLToPath(new URL('./hostile-stdio-server.ts', import.meta.url));

/** What the hostile server adds to its tools (see hostile-stdio-server.ts). */
export interface HostileExtras {
  /** The oversized description and input schema. */
  readonly sizes?: boolean;
  /** This many more tools. */
  readonly tools?: number;
  /** `big_output`, with its 2 MB output schema. */
  readonly bigOutput?: boolean;
  /** A tool with a 100,000-character name, listed twice (`'controls'`: a name of control characters). */
  readonly twins?: boolean | 'controls';
  /** This many tools with an input schema just under 64 KiB each. */
  readonly wide?: number;
  /** The properties of each of those schemas, in place of 850 (some 64 KiB): 50 make some 3 KiB. */
  readonly wideFields?: number;
}

/** The hostile server (see hostile-stdio-server.ts): schemas and texts an attacker would send, and the `extras` asked for. */
export function hostileStdioServer(extras: HostileExtras = {}): McpStdioServerConfig {
  const env = {
    ...(extras.sizes ? { MCP_HOSTILE_SIZES: '1' } : {}),
    ...(extras.tools ? { MCP_HOSTILE_TOOLS: String(extras.tools) } : {}),
    ...(extras.bigOutput ? { MCP_HOSTILE_OUTPUT: '1' } : {}),
    ...(extras.twins ? { MCP_HOSTILE_TWINS: extras.twins === true ? '1' : extras.twins } : {}),
    ...(extras.wide ? { MCP_HOSTILE_WIDE: String(extras.wide) } : {}),
    ...(extras.wideFields ? { MCP_HOSTILE_WIDE_FIELDS: String(extras.wideFields) } : {}),
  };
  return { command: process.execPath, args: ['--import', 'tsx', HOSTILE], cwd: REPO, ...(Object.keys(env).length > 0 ? { env } : {}) };
}

const FLOODING = fileURLToPath(new URL('./flooding-stdio-server.ts', import.meta.url));

/** The flooding server (see flooding-stdio-server.ts): `notifications/tools/list_changed` by the thousand. */
export function floodingStdioServer(): McpStdioServerConfig {
  return { command: process.execPath, args: ['--import', 'tsx', FLOODING], cwd: REPO };
}

const RENAMING = fileURLToPath(new URL('./renaming-stdio-server.ts', import.meta.url));

/** The renaming server (see renaming-stdio-server.ts): a tool named anew at every listing. */
export function renamingStdioServer(): McpStdioServerConfig {
  return { command: process.execPath, args: ['--import', 'tsx', RENAMING], cwd: REPO };
}

const RAW = fileURLToPath(new URL('./raw-stdio-server.mjs', import.meta.url));

/** The deep-schema server (see raw-stdio-server.mjs): `deep`, an input schema nested 5,000 deep, `deep_output`, an output schema as deep, and `echo`. */
export function deepSchemaStdioServer(): McpStdioServerConfig {
  return { command: process.execPath, args: [RAW], env: { MCP_RAW_MODE: 'deep' } };
}

/** The refs server (see raw-stdio-server.mjs): tools whose input schema's `$ref` loops or points at a URL, `tree` (local `$ref`s), `loop_output`, `echo`. */
export function refsStdioServer(): McpStdioServerConfig {
  return { command: process.execPath, args: [RAW], env: { MCP_RAW_MODE: 'refs' } };
}

/** A server listing one tool a page, each `pageDelayMs` late, for ever (see raw-stdio-server.mjs). */
export function slowPagesStdioServer(pageDelayMs: number, startTimeoutMs: number): McpStdioServerConfig {
  return { command: process.execPath, args: [RAW], env: { MCP_RAW_MODE: 'slow-pages', MCP_PAGE_DELAY_MS: String(pageDelayMs) }, startTimeoutMs };
}

/** A server that, once it has listed `echo`, reads nothing more and sends pings for ever (see raw-stdio-server.mjs). */
export function pingFloodStdioServer(): McpStdioServerConfig {
  return { command: process.execPath, args: [RAW], env: { MCP_RAW_MODE: 'ping-flood' } };
}

const CHATTY = fileURLToPath(new URL('./chatty-stdio-server.mjs', import.meta.url));

/** The chatty server (see chatty-stdio-server.mjs): pings, progress, a ping storm; with `spew`, a flood once its stdin ends. */
export function chattyStdioServer(options: { readonly spew?: boolean; readonly marks?: Marks } = {}): McpStdioServerConfig {
  const env = { ...(options.spew ? { MCP_CHATTY_SPEW: '1' } : {}), ...(options.marks ? { MCP_CHATTY_MARKS: options.marks.env['MCP_TEST_MARKS']! } : {}) };
  return { command: process.execPath, args: [CHATTY], env };
}

const MALFORMED = fileURLToPath(new URL('./malformed-stdio-server.mjs', import.meta.url));

/** The malformed-listing server (see malformed-stdio-server.mjs) in one of its modes. */
export function malformedStdioServer(mode: 'mixed' | 'many' | 'not-array' | 'second-page'): McpStdioServerConfig {
  return { command: process.execPath, args: [MALFORMED], env: { MCP_MALFORMED_MODE: mode } };
}
