import type { RemoteA2AOptions, RemoteA2ARequest } from './remote-a2a-options.js';
import { REDACTED } from './stream-redactor.js';

/** The environment variable whose value is sent as `Authorization: Bearer <token>` to remote A2A agents (when the engine's `a2a.token` and `a2a.headers` give none). */
export const A2A_TOKEN_ENV = 'RXHARNESS_A2A_TOKEN';

/**
 * The fewest characters a credential sent to a remote A2A agent may have. Every one is
 * redacted from all the remote sends back, and a shorter one is too likely to be ordinary
 * text (`1234`, `test`) to be redacted everywhere: shorter ones are refused, not sent. A
 * shorter value of a header whose name does not say credential is plain, not refused (see
 * {@link isCredentialHeader}).
 */
export const MIN_CREDENTIAL_LENGTH = 8;

/**
 * The credentials of one remote task: the headers each of its requests carries (the engine's
 * `a2a.headers` for that request, else `a2a.token`, else `RXHARNESS_A2A_TOKEN` as a bearer
 * token, read when the task starts), and every value it sent, so that {@link redact} can
 * take them out of a message: a remote may echo a token in its error body, which the SDK
 * puts in its error's message.
 *
 * A definition from the workspace that the engine does not trust gets none of them (see
 * `untrustedFile`): a cloned repository's `.rxharness/agents/*.md` may name any card URL, its
 * own server's included, and the engine's credentials are the user's, not the repository's.
 */
export class RemoteCredentials {
  readonly #token: string | undefined;
  readonly #secrets = new Set<string>();
  #sorted: readonly string[] = [];

  /**
   * @param untrustedFile - the file of a workspace definition the engine does not trust
   *   (`trustWorkspaceAgents` unset): its requests carry no credentials at all (`a2a.headers`
   *   is not even called); absent, they carry the engine's.
   */
  constructor(
    private readonly remote: Omit<RemoteA2ARequest, 'url'>,
    private readonly options: RemoteA2AOptions,
    readonly untrustedFile?: string,
  ) {
    this.#token = untrustedFile === undefined ? (options.token ?? process.env[A2A_TOKEN_ENV]) : undefined;
  }

  /** Every credential sent so far, longest first. */
  get secrets(): readonly string[] {
    return this.#sorted;
  }

  /**
   * The headers of a request to `url`. The default token goes only to the card's own origin:
   * a card may name a JSON-RPC URL on any host, and a hostile or hijacked card must not be
   * able to collect the token by naming its own. `a2a.headers` sees every URL and decides.
   * For an untrusted workspace definition (`untrustedFile`): none at all.
   */
  async headersFor(url: string): Promise<Headers> {
    const headers = new Headers();
    if (this.untrustedFile !== undefined) return headers;
    if (this.#token) {
      this.#keep(this.#token, this.options.token === undefined ? A2A_TOKEN_ENV : 'a2a.token');
      if (sameOrigin(url, this.remote.cardUrl)) headers.set('authorization', `Bearer ${this.#token}`);
    }
    const own = await this.options.headers?.({ url, ...this.remote });
    for (const [name, value] of Object.entries(own ?? {})) {
      if (isCredentialHeader(name)) {
        this.#keep(value, `the value a2a.headers gave for ${name}`);
        // `Bearer <token>`, `Basic <credentials>` (a scheme, then credentials): the credentials alone are a secret too.
        const credentials = /^[A-Za-z][\w!#$%&'*+.^`|~-]*\s+(\S.*)$/.exec(value)?.[1];
        if (credentials !== undefined) this.#keep(credentials, `the credentials in the value a2a.headers gave for ${name}`);
      } else if (value.length >= MIN_CREDENTIAL_LENGTH) {
        // A name that does not say credential may still carry one: redacted all the same.
        this.#keep(value, `the value a2a.headers gave for ${name}`);
      } // Shorter, under such a name (`x-tenant: eu`): plain, sent as given and not redacted.
      headers.set(name, value);
    }
    return headers;
  }

  /** `text` (a whole message: an error, an answer) with every credential sent so far replaced by `[redacted]`. */
  redact(text: string): string {
    let out = text;
    // Longest first, so a token inside a longer header value goes with it.
    for (const secret of this.#sorted) out = out.replaceAll(secret, REDACTED);
    return out;
  }

  // Refused (before anything is sent) if too short to redact; `what` names it in the message.
  #keep(value: string, what: string): void {
    const refusal = shortCredential(value, what);
    if (refusal !== undefined) throw new Error(refusal);
    if (this.#secrets.has(value)) return;
    this.#secrets.add(value);
    this.#sorted = [...this.#secrets].sort((a, b) => b.length - a.length);
  }
}

/**
 * Whether a header's name says it carries a credential: `authorization`, `proxy-authorization`,
 * `cookie`, or a name with `auth`, `token`, `key`, `secret`, `password`, `passwd`,
 * `passphrase`, `passcode`, `session`, `signature` or `credential` in it (`x-api-key`,
 * `x-session-id`; not `x-bypass-cache`). Such a value must be long enough to
 * redact; any other is a credential only from {@link MIN_CREDENTIAL_LENGTH} characters on.
 */
export function isCredentialHeader(name: string): boolean {
  return /auth|token|key|secret|password|passwd|passphrase|passcode|session|cookie|signature|credential/i.test(name);
}

/**
 * Checks the engine's `a2a` option when the engine is made: an `a2a.token` too short to
 * redact (see {@link MIN_CREDENTIAL_LENGTH}) is refused then, not when a task first uses it.
 *
 * @throws TypeError naming the option and the length it needs.
 */
export function checkRemoteA2AOptions(options: RemoteA2AOptions): void {
  const refusal = options.token ? shortCredential(options.token, '`a2a.token`') : undefined;
  if (refusal !== undefined) throw new TypeError(`HarnessEngine: ${refusal}`);
}

/**
 * Refuses a credential too short to redact, with a message naming it as `what` (never its
 * value); undefined for one long enough.
 */
export function shortCredential(value: string, what: string): string | undefined {
  if (value.length >= MIN_CREDENTIAL_LENGTH) return undefined;
  return `${what} is ${value.length} characters long: credentials under ${MIN_CREDENTIAL_LENGTH} characters are refused, since redacting so short a value from all a remote agent sends back would garble ordinary text; use a longer one`;
}

/**
 * Why a remote refused an untrusted workspace definition's request (`status`: 401 or 403):
 * no credentials were sent, and how to have them sent. Without it, the remote's bare
 * "unauthorized" would look like a wrong token.
 */
export function withheldCredentials(url: string, status: number, untrustedFile: string): string {
  return (
    `${url} answered ${status} without credentials: none were sent, since the definition comes from the workspace (${untrustedFile}) ` +
    `and a cloned repository's definition gets neither a2a.token, ${A2A_TOKEN_ENV} nor a2a.headers. If you trust it, set the engine ` +
    'option trustWorkspaceAgents, or move the file to ~/.rxharness/agents/ or a folder in agentDirs'
  );
}

function sameOrigin(url: string, cardUrl: string): boolean {
  return URL.canParse(url) && URL.canParse(cardUrl) && new URL(url).origin === new URL(cardUrl).origin;
}
