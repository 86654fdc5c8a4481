import { closest } from '../errors/did-you-mean.js';
import { MAX_TIMER_MS } from '../validation/max-timer.js';
import { shownUrl } from '../text/shown-url.js';

/** An MCP server run as a child process, spoken to over its stdin and stdout. */
export interface McpStdioServerConfig {
  /** The program to run (looked up on `PATH`), e.g. `npx` or `node`. */
  readonly command: string;
  /** Its arguments. */
  readonly args?: readonly string[];
  /**
   * Environment variables for it, on top of a safe few inherited from the engine's process
   * (`HOME`, `PATH`, `SHELL`, `TERM`, `USER`, `LOGNAME`): the rest of the environment (API
   * keys...) is not passed on unless named here.
   */
  readonly env?: Readonly<Record<string, string>>;
  /** Its working folder; default the engine's workspace. Relative: to the workspace. */
  readonly cwd?: string;
  /** How long starting it (spawn, handshake, tool list) may take, in milliseconds. Default 30,000. */
  readonly startTimeoutMs?: number;
}

/** An MCP server reached over Streamable HTTP. */
export interface McpHttpServerConfig {
  /** Its endpoint, `http:` or `https:`, e.g. `http://127.0.0.1:3000/mcp`. */
  readonly url: string;
  /** Headers sent with every request (an `Authorization` token...). */
  readonly headers?: Readonly<Record<string, string>>;
  /** How long connecting (handshake, tool list) may take, in milliseconds. Default 30,000. */
  readonly startTimeoutMs?: number;
}

/** One entry of the engine's `mcpServers`: a command to run, or a url to reach. */
export type McpServerConfig = McpStdioServerConfig | McpHttpServerConfig;

/** How long a server may take to start when its config does not say. */
export const DEFAULT_MCP_START_TIMEOUT_MS = 30_000;

// A server's name becomes part of each tool's name (`mcp__<server>__<tool>`), which models
// accept only in [a-zA-Z0-9_-]; a `__` inside it would make the split ambiguous. At most 40
// characters, so a tool name cut to the models' 64 keeps its `mcp__<server>__` whole.
const SERVER_NAME = /^[a-zA-Z0-9](?:[a-zA-Z0-9-]|_(?!_|$)){0,39}$/;

const STDIO_KEYS = ['command', 'args', 'env', 'cwd', 'startTimeoutMs'];
const HTTP_KEYS = ['url', 'headers', 'startTimeoutMs'];

/**
 * Checks the engine's `mcpServers` option, so a mistake fails the engine's constructor with
 * a `TypeError` naming the server, rather than a run later.
 *
 * @example
 * ```ts
 * checkMcpServers({ fs: { command: 'npx', args: ['-y', '@modelcontextprotocol/server-filesystem', '.'] } }); // fine
 * checkMcpServers({ fs: { command: 'npx', arg: [] } }); // TypeError: HarnessEngine: `mcpServers.fs` has an unknown key "arg" ...
 * ```
 */
export function checkMcpServers(servers: Readonly<Record<string, McpServerConfig>>): void {
  const fail = (name: string, problem: string): never => {
    throw new TypeError(`HarnessEngine: \`mcpServers.${name}\` ${problem}`);
  };
  for (const [name, config] of Object.entries(servers)) {
    if (!SERVER_NAME.test(name)) fail(name, 'has a bad name: use letters, digits, "-" and single "_" inside (it becomes part of each tool name, mcp__<server>__<tool>)');
    if (config === null || typeof config !== 'object' || Array.isArray(config)) fail(name, 'must be an object: { command, args?, env? } or { url, headers? }');
    const fields = config as unknown as Record<string, unknown>;
    const stdio = 'command' in fields;
    if (stdio === 'url' in fields) {
      // Neither: a misspelt "comand" or "URL" is the likely cause, so name it.
      const hint = stdio ? '' : didYouMean(Object.keys(fields), ['command', 'url']);
      fail(name, `must have either \`command\` (a process over stdio) or \`url\` (Streamable HTTP), not both or neither${hint}`);
    }
    const known = stdio ? STDIO_KEYS : HTTP_KEYS;
    const unknown = Object.keys(fields).filter((key) => !known.includes(key));
    if (unknown.length) fail(name, `has an unknown key ${unknown.map((k) => `"${k}"`).join(', ')}${didYouMean(unknown, known)}; known keys: ${known.join(', ')}`);
    if (stdio) checkStdio(fields, (problem) => fail(name, problem));
    else checkHttp(fields, (problem) => fail(name, problem));
    const timeout = fields['startTimeoutMs'];
    // Above MAX_TIMER_MS Node fires the timer after 1 ms: every start would time out at once.
    if (timeout !== undefined && (!Number.isInteger(timeout) || (timeout as number) < 1 || (timeout as number) > MAX_TIMER_MS)) {
      fail(name, `\`startTimeoutMs\` must be an integer of milliseconds from 1 to ${MAX_TIMER_MS} (the longest a timer holds, about 24.8 days), got ${String(timeout)}`);
    }
  }
}

/** ` (did you mean "args" for "arg"?)` for the first of `keys` close to a `known` one (see `closest`), else nothing. */
function didYouMean(keys: readonly string[], known: readonly string[]): string {
  for (const key of keys) {
    const meant = known.includes(key) ? undefined : closest(key, known);
    if (meant !== undefined) return ` (did you mean "${meant}" for "${key}"?)`;
  }
  return '';
}

function checkStdio(fields: Record<string, unknown>, fail: (problem: string) => never): void {
  if (typeof fields['command'] !== 'string' || fields['command'] === '') fail('`command` must be a non-empty string');
  const args = fields['args'];
  if (args !== undefined && (!Array.isArray(args) || !args.every((a) => typeof a === 'string'))) fail('`args` must be an array of strings');
  if (fields['env'] !== undefined && !isStringRecord(fields['env'])) fail('`env` must be an object of strings');
  if (fields['cwd'] !== undefined && typeof fields['cwd'] !== 'string') fail('`cwd` must be a string');
}

function checkHttp(fields: Record<string, unknown>, fail: (problem: string) => never): void {
  const url = fields['url'];
  const parsed = typeof url === 'string' && URL.canParse(url) ? new URL(url) : undefined;
  // A password (or a key in the query) is never quoted back, parsed or not: a message reaches stderr, events and logs.
  const shown = typeof url === 'string' ? shownUrl(url) : url;
  if (!parsed || !/^https?:$/.test(parsed.protocol)) fail(`\`url\` must be an http or https url, got ${JSON.stringify(shown)}`);
  // fetch refuses such a url, and its error would quote it in every run's warning.
  if (parsed.username || parsed.password) fail(`\`url\` must not hold a user or password (${shown}): send credentials in \`headers\`, e.g. { "Authorization": "Bearer ..." }`);
  if (fields['headers'] !== undefined && !isStringRecord(fields['headers'])) fail('`headers` must be an object of strings');
}

function isStringRecord(value: unknown): boolean {
  return value !== null && typeof value === 'object' && !Array.isArray(value) && Object.values(value).every((v) => typeof v === 'string');
}

/**
 * Whether a config runs a process (else it names a url).
 *
 * @example
 * ```ts
 * isStdioServer({ command: 'node', args: ['server.js'] }); // true
 * isStdioServer({ url: 'http://127.0.0.1:3000/mcp' }); // false
 * ```
 */
export function isStdioServer(config: McpServerConfig): config is McpStdioServerConfig {
  return 'command' in config;
}
