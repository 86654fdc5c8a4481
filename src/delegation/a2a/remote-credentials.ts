import type { RemoteA2AOptions, RemoteA2ARequest } from './remote-a2a-options.js';

/** The environment variable whose value is sent as `Authorization: Bearer <token>` to remote A2A agents (when the engine's `a2a.token` and `a2a.headers` give none). */
export const A2A_TOKEN_ENV = 'RXHARNESS_A2A_TOKEN';

/** Shorter values are not taken for secrets: redacting them would garble messages (a `1` in every URL). */
const MIN_SECRET_LENGTH = 4;

/**
 * The credentials of one remote task: the headers each of its requests carries (the engine's
 * `a2a.headers` for that request, else `a2a.token`, else `RXHARNESS_A2A_TOKEN` as a bearer
 * token, read when the task starts), and every value it sent, so that {@link redact} can
 * take them out of a message: a remote may echo a token in its error body, which the SDK
 * puts in its error's message.
 */
export class RemoteCredentials {
  readonly #token: string | undefined;
  readonly #secrets = new Set<string>();

  constructor(
    private readonly remote: Omit<RemoteA2ARequest, 'url'>,
    private readonly options: RemoteA2AOptions,
  ) {
    this.#token = options.token ?? process.env[A2A_TOKEN_ENV];
    if (this.#token) this.#keep(this.#token);
  }

  /**
   * The headers of a request to `url`. The default token goes only to the card's own origin:
   * a card may name a JSON-RPC URL on any host, and a hostile or hijacked card must not be
   * able to collect the token by naming its own. `a2a.headers` sees every URL and decides.
   */
  async headersFor(url: string): Promise<Headers> {
    const headers = new Headers();
    if (this.#token && sameOrigin(url, this.remote.cardUrl)) headers.set('authorization', `Bearer ${this.#token}`);
    const own = await this.options.headers?.({ url, ...this.remote });
    for (const [name, value] of Object.entries(own ?? {})) {
      headers.set(name, value);
      this.#keep(value);
    }
    return headers;
  }

  /** `text` with every credential sent so far replaced by `[redacted]`. */
  redact(text: string): string {
    let out = text;
    // Longest first, so a token inside a longer header value goes with it.
    for (const secret of [...this.#secrets].sort((a, b) => b.length - a.length)) out = out.replaceAll(secret, '[redacted]');
    return out;
  }

  #keep(value: string): void {
    if (value.length >= MIN_SECRET_LENGTH) this.#secrets.add(value);
    // `Bearer <token>`, `Basic <credentials>`: the credentials alone are a secret too.
    const credentials = /^\S+\s+(\S.*)$/.exec(value)?.[1];
    if (credentials !== undefined && credentials.length >= MIN_SECRET_LENGTH) this.#secrets.add(credentials);
  }
}

function sameOrigin(url: string, cardUrl: string): boolean {
  return URL.canParse(url) && URL.canParse(cardUrl) && new URL(url).origin === new URL(cardUrl).origin;
}
