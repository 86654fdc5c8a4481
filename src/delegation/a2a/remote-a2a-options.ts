/** Milliseconds a remote A2A task may go without an update before it is cancelled: 5 minutes. */
export const DEFAULT_A2A_IDLE_TIMEOUT_MS = 300_000;

/** The most updates a remote A2A task may send by default (see {@link RemoteA2AOptions.maxUpdates}). */
export const DEFAULT_A2A_MAX_UPDATES = 25_000;

/** The most characters of text a remote A2A task may send by default (see {@link RemoteA2AOptions.maxChars}). */
export const DEFAULT_A2A_MAX_CHARS = 1_000_000;

/** One HTTP request to a remote A2A agent (its card, a JSON-RPC call), as {@link RemoteA2AOptions.headers} sees it. */
export interface RemoteA2ARequest {
  /** The URL this request goes to: the card's, or the JSON-RPC URL the card names. */
  readonly url: string;
  /** The definition's `a2a` URL (the remote agent's card). */
  readonly cardUrl: string;
  /** The definition's name. */
  readonly agentName: string;
}

/**
 * How this engine talks to remote A2A agents (definitions with `a2a: <card URL>`): the
 * engine option `a2a`. Without it, every remote a trusted definition names gets
 * `RXHARNESS_A2A_TOKEN` as its bearer token, tasks idle for 5 minutes are cancelled, and a
 * task may send 25,000 updates and 1,000,000 characters.
 *
 * @example
 * ```ts
 * new HarnessEngine({
 *   model,
 *   a2a: {
 *     idleTimeoutMs: 60_000,
 *     // Each remote its own credentials, from the program (a vault, a config), not the environment.
 *     headers: ({ agentName }) => ({ authorization: `Bearer ${tokens[agentName]}` }),
 *   },
 * });
 * ```
 */
export interface RemoteA2AOptions {
  /**
   * The bearer token sent to every remote agent; default `RXHARNESS_A2A_TOKEN` (read when each
   * task starts). It goes only to the card's own origin: a card naming its JSON-RPC endpoint on
   * another host gets no token there unless {@link RemoteA2AOptions.headers} gives one. One
   * under 8 characters (`MIN_CREDENTIAL_LENGTH`) is refused: each task fails before sending anything.
   * Never sent for a definition from the workspace's `.rxharness/agents/` unless the engine
   * option `trustWorkspaceAgents` is set: a cloned repository could name its own card URL.
   */
  readonly token?: string;
  /**
   * Headers for one request to a remote agent, by the request's URL and the agent (e.g. an
   * `authorization` of its own, which replaces `token`). Called for every request; it may be
   * async. Its values are taken as secrets and redacted from every error message and delta
   * the remote's answer becomes, but for a value under 8 characters under a name that does not
   * say credential (`x-tenant: eu`): that one is plain, sent as given and not redacted. Under a
   * name that says credential (`auth`, `token`, `key`, `secret`, `password`, `session`,
   * `cookie`, `signature` or `credential` in it; see `isCredentialHeader`), a value under 8
   * characters, or a `<scheme> <credentials>` value whose credentials are, is refused: the
   * task fails before sending anything. Not called for an untrusted workspace definition (as
   * for {@link RemoteA2AOptions.token}), and redirects are not followed, so the headers it
   * gives for a URL go to that URL only.
   */
  readonly headers?: (request: RemoteA2ARequest) => Readonly<Record<string, string>> | undefined | Promise<Readonly<Record<string, string>> | undefined>;
  /**
   * A remote task that sends no update for this long is cancelled (`tasks/cancel` sent to it)
   * and fails with a message naming the agent, its card URL and the timeout. Counted from the
   * task's start (the card, the connection) and from each update. Default 5 minutes; 0: never.
   */
  readonly idleTimeoutMs?: number;
  /**
   * The most updates one remote task may send (a remote that never finishes); past it the task
   * fails and is cancelled there. An integer >= 1; default 25,000.
   */
  readonly maxUpdates?: number;
  /**
   * The most characters of text one remote task may send (its artifacts, status messages and
   * ids kept together; a data part counts the length of its JSON, a file part its bytes or
   * its URL's length); past it the task fails and is cancelled there. An integer >= 1;
   * default 1,000,000.
   */
  readonly maxChars?: number;
}
