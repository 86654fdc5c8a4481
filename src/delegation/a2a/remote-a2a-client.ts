import type { Client } from '@a2a-js/sdk/client';
import type { RemoteCredentials } from './remote-credentials.js';
import { remoteFetch } from './remote-fetch.js';

export { A2A_TOKEN_ENV } from './remote-credentials.js';

/**
 * A client of the remote A2A agent whose card is at `cardUrl` (a URL ending in `.json` is
 * the card itself; any other is the agent's base URL, its card at
 * `/.well-known/agent-card.json`), through `@a2a-js/sdk`'s `ClientFactory` (JSON-RPC, A2A
 * 1.0 or 0.3 as the card offers). Every request goes through {@link remoteFetch}: the headers
 * `credentials` give for its URL, its own signal (the SDK's `RequestOptions.signal`), else
 * `signal`, no redirects, bodies other than the event stream capped. The SDK is loaded on
 * first use: engines without remote agents never load it.
 */
export async function remoteA2AClient(cardUrl: string, credentials: RemoteCredentials, signal: AbortSignal): Promise<Client> {
  const { ClientFactory, ClientFactoryOptions, DefaultAgentCardResolver, JsonRpcTransportFactory } = await import('@a2a-js/sdk/client');
  const fetchImpl = remoteFetch(credentials, signal);
  const factory = new ClientFactory(
    ClientFactoryOptions.createFrom(ClientFactoryOptions.default, {
      transports: [new JsonRpcTransportFactory({ fetchImpl, legacyCompat: { enabled: true } })],
      cardResolver: new DefaultAgentCardResolver({ fetchImpl, legacyCompat: { enabled: true } }),
    }),
  );
  return new URL(cardUrl).pathname.endsWith('.json') ? factory.createFromUrl(cardUrl, '') : factory.createFromUrl(cardUrl);
}
