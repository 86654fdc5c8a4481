import { createRequire } from 'node:module';
import { resolve } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { errorMessage } from '../errors/error-message.js';
import { clipMiddle } from '../text/clip-middle.js';
import { MAX_TIMER_MS } from '../validation/max-timer.js';
import { coalesced } from './coalesced.js';
import { readMcpCallAnswer, type McpCallAnswer } from './mcp-call-result.js';
import { mcpOutputChecks, mcpOutputProblem, type McpOutputChecks } from './mcp-output-check.js';
import { mcpOutputValidator } from './mcp-output-validator.js';
import { mcpRedirectAdvice } from './mcp-redirect-advice.js';
import { loadMcpSdk, type McpSdk } from './mcp-sdk.js';
import type { McpPathBase } from './mcp-path-subjects.js';
import { DEFAULT_MCP_START_TIMEOUT_MS, isStdioServer, type McpServerConfig } from './mcp-server-config.js';
import { listMcpTools, type McpListedTool, type McpListing } from './mcp-tool-listing.js';
import { endSession, openTransport } from './mcp-transport.js';

// While starting, `client` is set once the SDK has loaded (it loads with the first start).
type Starting = { readonly kind: 'starting'; client: Client | undefined; done: Promise<void> };
type Ready = { readonly kind: 'ready'; readonly client: Client; readonly sdk: McpSdk; readonly stopped: () => Promise<void>; readonly relist: () => Promise<void> };
type State = { readonly kind: 'idle' } | Starting | Ready | { readonly kind: 'closed' };

const VERSION = (createRequire(import.meta.url)('../../package.json') as { version: string }).version;
// The SDK times every request (60 s by default); a call is bounded by the agent's tool
// timeout instead, which aborts its signal. The largest delay a timer takes:
const NO_TIMEOUT = MAX_TIMER_MS;
// The longest `problem` kept: a server's error (5 MB of it) went whole into every run's warning.
const MAX_PROBLEM_CHARS = 2_000;
// How long closing waits for an HTTP server to end our session.
const END_SESSION_MS = 2_000;
/**
 * The least time between two listings a server's `list_changed` starts by itself; a change
 * within it marks the listing stale, and the next run that needs the server lists it first.
 * A server answering each listing with a `list_changed` (of a 9.8 MiB listing) kept an idle
 * engine 37% busy.
 */
export const MCP_RELIST_GAP_MS = 5_000;

/**
 * One MCP server: started when first needed, its tools listed, calls made, and stopped. It
 * never throws at its users for anything the server does: a start that fails leaves the
 * reason in {@link McpConnection.problem} (the next {@link McpConnection.ensure} tries
 * again), a server that stops is noticed, and a failed call rejects with a message naming
 * the server.
 */
export class McpConnection {
  /** Why the server is not running (it failed to start, or stopped), cut to 2,000 characters; undefined when it runs or never ran. */
  get problem(): string | undefined {
    return this.why;
  }
  private set problem(why: string | undefined) {
    this.why = why === undefined ? undefined : clipMiddle(mcpRedirectAdvice(why, this.config), MAX_PROBLEM_CHARS);
  }
  private why: string | undefined;
  /** Its well-formed tools as it last listed them, each as a listing keeps it (`McpListedTool`: trimmed), no further than the page that passes MCP_MAX_TOOLS (kept after it stops, so names given out still resolve). */
  tools: readonly McpListedTool[] = [];
  /** Why tools of that listing were left out as malformed (each naming the tool and what is wrong with it), set with {@link McpConnection.tools}. */
  malformed: readonly string[] = [];
  // The output schemas of that listing's tools, which their results are checked against.
  private outputChecks: McpOutputChecks = new Map();
  private state: State = { kind: 'idle' };
  // The stop of a server that was lost (it stopped, or a guard gave up on it): its processes
  // may outlive the loss by a kill or two, which a close must wait for.
  private stopping: Promise<void> = Promise.resolve();
  // The server said its tools changed since the current listing was asked for.
  private stale = false;
  // When the last listing after a change started (Date.now()).
  private relisted = -Infinity;
  // The listing after a change under way, and the client it lists through.
  private listing: { readonly client: Client; readonly done: Promise<void> } | undefined;

  constructor(
    readonly name: string,
    private readonly config: McpServerConfig,
    private readonly workspace: string,
  ) {}

  /** Where its relative path arguments start: a stdio server's working folder; a remote server's paths are its own. */
  get pathBase(): McpPathBase {
    return isStdioServer(this.config) ? { local: true, cwd: resolve(this.workspace, this.config.cwd ?? '.') } : { local: false };
  }

  /** True while it runs. */
  get running(): boolean {
    return this.state.kind === 'ready';
  }

  /**
   * Starts the server unless it runs or is starting, and lists its tools again when it said
   * they changed and they were not listed since ({@link MCP_RELIST_GAP_MS}): that waits for
   * one listing at most, bounded like a start by `startTimeoutMs`, and one that fails loses
   * the server, saying why in {@link McpConnection.problem}. Returns undefined
   * when nothing has to be waited for (it runs, its listing current, or the connection is
   * closed), so a run whose servers all run starts synchronously; else a promise that
   * settles, never rejecting, when the start or the listing is over.
   */
  ensure(): Promise<void> | undefined {
    const state = this.state;
    // A listing said to be stale is taken again first (see MCP_RELIST_GAP_MS).
    if (state.kind === 'ready') return this.stale ? this.relistFor(state) : undefined;
    if (state.kind === 'closed') return undefined;
    if (state.kind === 'starting') return state.done;
    return this.start();
  }

  /** Calls one of its tools; rejects with a message naming the server when that cannot be done. */
  async call(tool: string, args: Record<string, unknown>, signal: AbortSignal): Promise<CallToolResult> {
    const state = this.state;
    if (state.kind !== 'ready') throw new Error(this.notRunning());
    // Taken before the call: a listing that comes meanwhile must not judge this answer.
    const checks = this.outputChecks;
    let answer: McpCallAnswer;
    try {
      // No `onprogress`, so no progress token, and no `resetTimeoutOnProgress`: the SDK's own
      // timeout is off (NO_TIMEOUT), so there is nothing for progress to keep alive; the bound
      // is the agent's tool timeout, which a server's progress does not extend (a server
      // saying "still busy" for ever must not hold a run for ever). Without a token a server
      // sends no progress, and any it sends anyway is dropped unread (mcp-notification-guard).
      const options = { signal, timeout: NO_TIMEOUT };
      // Read as any object, not by the SDK's `callTool`: its schema error on a malformed
      // answer looked like a lost connection, and stopped the server for every run.
      const raw = await state.client.request({ method: 'tools/call', params: { name: tool, arguments: args } }, state.sdk.AnyResultSchema, options);
      answer = readMcpCallAnswer(state.sdk, raw);
    } catch (e) {
      if (signal.aborted) throw e;
      // An error the server answered leaves it running; anything else (it stopped, the HTTP
      // session is gone, the network failed) means it must be started again.
      const answered = e instanceof state.sdk.McpError && e.code !== state.sdk.ErrorCode.ConnectionClosed;
      if (!answered) this.lose(state.client, state.stopped, `the connection failed during a call: ${errorMessage(e)}`);
      if (answered) throw new Error(`MCP server "${this.name}" answered with an error: ${errorMessage(e)}`);
      throw new Error(`MCP server "${this.name}" failed during the call (${this.problem ?? errorMessage(e)}); ${this.whatNext()}`);
    }
    // A malformed answer, or one that breaks its tool's output schema, leaves the server running, like an error.
    if ('problem' in answer) throw new Error(`MCP server "${this.name}" answered, but ${answer.problem}`);
    const result = answer.result;
    const problem = mcpOutputProblem(checks, tool, result);
    if (problem !== undefined) throw new Error(`MCP server "${this.name}" answered, but ${problem}`);
    return result;
  }

  /** Stops the server (its process ends) and refuses any start after; waits until it has stopped. */
  async close(): Promise<void> {
    const state = this.state;
    this.state = { kind: 'closed' };
    this.problem = 'was closed with the engine';
    if (state.kind === 'ready') await endSession(state.sdk, state.client.transport, END_SESSION_MS);
    if (state.kind === 'ready' || state.kind === 'starting') await state.client?.close().catch(() => undefined);
    if (state.kind === 'starting') await state.done;
    if (state.kind === 'ready') await state.stopped();
    await this.stopping;
  }

  private start(): Promise<void> {
    const starting: Starting = { kind: 'starting', client: undefined, done: Promise.resolve() };
    this.state = starting;
    starting.done = this.connect(starting);
    return starting.done;
  }

  /** Loads the SDK, starts the server and lists its tools; `starting` is this attempt's state. */
  private async connect(starting: Starting): Promise<void> {
    let sdk: McpSdk;
    try {
      sdk = await loadMcpSdk();
    } catch (e) {
      if (this.state !== starting) return;
      this.state = { kind: 'idle' };
      this.problem = `failed to start: @modelcontextprotocol/sdk could not be loaded (${errorMessage(e)})`;
      return;
    }
    // Closed while the SDK loaded: nothing was started.
    if (this.state !== starting) return;
    // One listing at a time, so a server flooding list_changed cannot pile up requests.
    const relist = coalesced(() => this.refresh(client, sdk, stopped));
    const changed = (): void => {
      const state = this.state;
      if ((state.kind !== 'ready' && state.kind !== 'starting') || state.client !== client) return;
      this.stale = true;
      // Listed now at most once a gap; else by the next run that needs the server.
      if (state.kind === 'ready' && Date.now() - this.relisted >= MCP_RELIST_GAP_MS) void this.relist(relist);
    };
    const client = new sdk.Client(
      { name: 'rxharness', version: VERSION },
      {
        capabilities: {},
        listChanged: { tools: { autoRefresh: false, debounceMs: 0, onChanged: changed } },
        jsonSchemaValidator: mcpOutputValidator,
      },
    );
    starting.client = client;
    const { transport, stderrTail, closedBecause, stopped } = openTransport(sdk, this.config, this.workspace);
    // One deadline for the whole start: a server answering each page of its list just in
    // time must not hold the runs waiting for it for a timeout per page.
    const timeLeft = deadline(this.startTimeoutMs);
    const because = (what: string): string => {
      const tail = stderrTail();
      return tail ? `${what}; its stderr ends with: ${tail}` : what;
    };
    client.onclose = () => this.lose(client, stopped, because(closedBecause() ?? 'the server closed the connection'));
    try {
      await client.connect(transport, { timeout: timeLeft() });
      // A change said from now on is one this listing may have missed.
      this.stale = false;
      // Said apart from the handshake: a listing that cannot be read (its tools no list) fails
      // with what is wrong only, which names no step.
      const listing = await listMcpTools(client, sdk, this.name, timeLeft).catch((e: unknown) => {
        throw new Error(`its tools/list answer failed or could not be read: ${errorMessage(e)}`, { cause: e instanceof Error ? e.cause : undefined });
      });
      if (this.state !== starting) return;
      this.listed(listing);
      this.problem = undefined;
      this.state = { kind: 'ready', client, sdk, stopped, relist };
    } catch (e) {
      await client.close().catch(() => undefined);
      await stopped();
      // Closed meanwhile (which is what failed the start): closed it stays.
      if ((this.state as State) !== starting) return;
      this.state = { kind: 'idle' };
      // A guard that closed the connection meanwhile says why better than "Connection closed".
      this.problem = because(`failed to start: ${closedBecause() ?? describeStartError(e)}`);
    }
  }

  /** The server behind `client` stopped: it is started again when next needed. */
  private lose(client: Client, stopped: () => Promise<void>, reason: string): void {
    const state = this.state;
    // While starting, the start itself fails and says why.
    if (state.kind !== 'ready' || state.client !== client) return;
    this.state = { kind: 'idle' };
    this.problem = `stopped: ${reason}`;
    // Waited for by `close()`: idle, the connection holds no client to close, and a process
    // the guard is still killing (a wrapper's child) outlived the engine's close.
    const before = this.stopping;
    this.stopping = Promise.all([before, client.close().catch(() => undefined), stopped()]).then(() => undefined);
  }

  /** Takes a listing as the current one: its tools, what was left out, and the checks of their output. */
  private listed(listing: McpListing): void {
    this.tools = listing.tools;
    this.malformed = listing.leftOut;
    this.outputChecks = mcpOutputChecks(listing.tools);
  }

  /** How long its start, and each listing after a change, may take. */
  private get startTimeoutMs(): number {
    return this.config.startTimeoutMs ?? DEFAULT_MCP_START_TIMEOUT_MS;
  }

  /** Lists the tools again through `relist` (one listing at a time), noting when. */
  private relist(relist: () => Promise<void>): Promise<void> {
    this.relisted = Date.now();
    return relist();
  }

  /**
   * Lists the tools again for a run that found the listing stale. The run waits for one
   * listing at most: the one under way if there is one (the one asked for now follows it, for
   * the runs after). Waiting for both held a run for two timeouts of a server slow to list.
   */
  private relistFor(state: Ready): Promise<void> {
    const under = this.listing?.client === state.client ? this.listing.done : undefined;
    const asked = this.relist(state.relist);
    return under ?? asked;
  }

  /** One listing after a change, noted as the one under way while it lasts. Never rejects. */
  private refresh(client: Client, sdk: McpSdk, stopped: () => Promise<void>): Promise<void> {
    const done: Promise<void> = this.listAgain(client, sdk, stopped).finally(() => {
      if (this.listing?.done === done) this.listing = undefined;
    });
    this.listing = { client, done };
    return done;
  }

  private async listAgain(client: Client, sdk: McpSdk, stopped: () => Promise<void>): Promise<void> {
    // A change said from now on is one this listing may have missed.
    this.stale = false;
    const timeout = this.startTimeoutMs;
    try {
      const listing = await listMcpTools(client, sdk, this.name, deadline(timeout));
      if (this.state.kind === 'ready' && this.state.client === client) this.listed(listing);
    } catch (e) {
      // Failed like a start's listing (no answer within startTimeoutMs, an error, a listing
      // that cannot be read): the tools it said changed are not known, so the server is
      // lost, and the run waiting for the listing is warned (its `problem`); the next run
      // starts it again. Kept running with the old list, it failed silently, and held each
      // run needing it for the SDK's timeouts. A connection lost meanwhile (`lose` is then
      // a no-op) said why already.
      this.lose(client, stopped, `its tools could not be listed again after it said they changed (within its startTimeoutMs, ${timeout} ms): ${describeStartError(e)}`);
    }
  }

  private notRunning(): string {
    return `MCP server "${this.name}" is not running (${this.problem ?? 'not started'}); ${this.whatNext()}`;
  }

  /** What becomes of a server that is not running: started by the next run, unless the connection was closed with its engine (`close()`), which no run can start again. */
  private whatNext(): string {
    return this.state.kind === 'closed' ? 'its engine is closed, so no run starts it again' : 'it is started again when the next run starts';
  }
}

/** What is left, in milliseconds, of `ms` from now (never below 1). */
function deadline(ms: number): () => number {
  const end = Date.now() + ms;
  return () => Math.max(1, end - Date.now());
}

/** A start error in words: node's `fetch failed` says why only in its cause. */
function describeStartError(e: unknown): string {
  const cause = e instanceof Error && e.cause !== undefined ? ` (${errorMessage(e.cause)})` : '';
  return `${errorMessage(e)}${cause}`;
}
