import { resolve } from 'node:path';
import { closest } from '../errors/did-you-mean.js';
import { errnoOf } from '../errors/errno-of.js';
import { errorMessage } from '../errors/error-message.js';
import { checkMcpServers, type McpServerConfig } from '../mcp/mcp-server-config.js';
import { CliUsageError } from './cli-usage-error.js';
import { readAtMost } from './read-at-most.js';

/** The most bytes an `--mcp-config` file may hold: a config is a few KB. */
const MAX_CONFIG_BYTES = 1024 * 1024;

/** The engine's `mcpServers`, by server name. */
export type McpServers = Record<string, McpServerConfig>;

/**
 * The MCP servers of every `--mcp-config FILE` (paths relative to `cwd`), merged in order.
 * Each file is `{ "mcpServers": { "<name>": { command, args?, env?, cwd? } | { url, headers? } } }`.
 * Everything is checked before anything runs: a file that is missing, not JSON, without an
 * `mcpServers` object or with a bad server, and a name two files both define (the name
 * prefixes its tools, so one would silently hide the other), throw a {@link CliUsageError}
 * naming the file. Only named files are read: a workspace's own `.mcp.json` never is, as a
 * cloned repository could plant one that starts any command.
 *
 * @example
 * ```ts
 * mcpServersFromFiles(['mcp.json'], process.cwd()); // { fs: { command: 'npx', args: [...] } }
 * mcpServersFromFiles(['a.json', 'b.json'], cwd);   // CliUsageError: --mcp-config b.json: server "fs" is also defined in a.json ...
 * ```
 */
export function mcpServersFromFiles(files: readonly string[], cwd: string): McpServers {
  const servers: McpServers = {};
  const definedIn = new Map<string, string>();
  for (const file of files) {
    // Checked whole before merging, so a name like "__proto__" is refused before it is assigned.
    for (const [name, config] of Object.entries(readMcpConfig(file, cwd))) {
      const first = definedIn.get(name);
      if (first !== undefined) {
        throw new CliUsageError(`--mcp-config ${file}: server "${name}" is also defined in ${first}; rename one of them (a server's name prefixes its tools: mcp__${name}__<tool>)`);
      }
      definedIn.set(name, file);
      servers[name] = config;
    }
  }
  return servers;
}

/** One file's servers, checked as the engine would check them. */
function readMcpConfig(file: string, cwd: string): McpServers {
  const usage = (problem: string): CliUsageError => new CliUsageError(`--mcp-config ${file}: ${problem}`);
  let text: string | undefined;
  try {
    text = readAtMost(resolve(cwd, file), MAX_CONFIG_BYTES);
  } catch (e) {
    throw usage(errnoOf(e) === 'ENOENT' ? 'no such file' : `cannot read it (${errorMessage(e)})`);
  }
  // Read whole before, `/dev/zero` or a pipe that never ends grew the process without end.
  if (text === undefined) throw usage('larger than 1 MiB (an MCP config is a few KB); nothing was read past that');
  let json: unknown;
  try {
    // Editors on Windows may save a byte-order mark, which JSON.parse refuses.
    json = JSON.parse(text.replace(/^\uFEFF/, ''));
  } catch (e) {
    throw usage(`not valid JSON (${errorMessage(e)})`);
  }
  const listed = isObject(json) ? json['mcpServers'] : undefined;
  if (!isObject(listed)) {
    // A misspelt "mcpServers" ("mcp_servers", "mcpServer") is the likely cause: name it.
    const misspelt = isObject(json) && listed === undefined ? Object.keys(json).find((key) => closest(key, ['mcpServers']) !== undefined) : undefined;
    const hint = misspelt === undefined ? '' : ` (found "${misspelt}": did you mean "mcpServers"?)`;
    throw usage(`needs an "mcpServers" object${hint}, e.g. { "mcpServers": { "fs": { "command": "npx", "args": ["-y", "@modelcontextprotocol/server-filesystem", "."] } } }`);
  }
  // fromEntries defines own properties: a "__proto__" server stays one, and its name is refused below.
  const servers = Object.fromEntries(Object.entries(listed).map(([name, config]) => [name, withoutType(name, config, usage)])) as McpServers;
  try {
    checkMcpServers(servers);
  } catch (e) {
    // The check speaks for the engine's constructor; here the file is what to fix.
    throw usage(errorMessage(e).replace(/^HarnessEngine: /, ''));
  }
  return servers;
}

/**
 * Files written for other tools (Claude Code's `.mcp.json`) spell the transport out as
 * `"type": "stdio" | "http"`; the engine tells them apart by `command` / `url`, so a `type`
 * that agrees is dropped, and any other (`"sse"`: a transport the engine does not speak) is bad.
 */
function withoutType(name: string, config: unknown, usage: (problem: string) => CliUsageError): unknown {
  if (!isObject(config) || !('type' in config)) return config;
  const { type, ...rest } = config;
  const needs = type === 'stdio' ? 'command' : type === 'http' ? 'url' : undefined;
  if (needs === undefined) throw usage(`\`mcpServers.${name}.type\` ${JSON.stringify(type)} is not supported: a server is "stdio" (a \`command\`) or "http" (a Streamable HTTP \`url\`)`);
  if (!(needs in rest)) throw usage(`\`mcpServers.${name}\` is of type "${String(type)}" but has no \`${needs}\``);
  return rest;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
