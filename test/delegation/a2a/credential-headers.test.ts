import { afterEach, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { A2A_TOKEN_ENV, isCredentialHeader, MIN_CREDENTIAL_LENGTH, RemoteCredentials } from '../../../src/delegation/a2a/remote-credentials.js';

const remote = { cardUrl: 'http://remote.test/card', agentName: 'remote' };
const withHeaders = (headers: Record<string, string>) => new RemoteCredentials(remote, { headers: () => headers });
afterEach(() => {
  delete process.env[A2A_TOKEN_ENV];
});

describe('the header values a2a.headers gives', () => {
  it.each(['authorization', 'Proxy-Authorization', 'cookie', 'X-API-Key', 'x-session-id', 'x-auth-user', 'x-access-token', 'x-client-secret', 'x-passphrase', 'x-db-password', 'x-signature', 'x-credential'])(
    '%s says credential',
    (name) => expect(isCredentialHeader(name)).toBe(true),
  );
  it.each(['x-tenant', 'accept-language', 'user-agent', 'x-request-id', 'x-region', 'a2a-version', 'x-bypass-cache'])('%s does not', (name) => expect(isCredentialHeader(name)).toBe(false));

  it('a short value under a plain name is sent as given and not redacted; a credential beside it still is', async () => {
    const credentials = withHeaders({ 'x-tenant': 'eu', 'accept-language': 'fr', authorization: 'Bearer sk-remote-9f3a' });
    const headers = await credentials.headersFor(remote.cardUrl);
    expect([...headers]).toEqual([['accept-language', 'fr'], ['authorization', 'Bearer sk-remote-9f3a'], ['x-tenant', 'eu']]);
    expect(credentials.secrets).toEqual(['Bearer sk-remote-9f3a', 'sk-remote-9f3a']);
    expect(credentials.redact('eu, fr: Bearer sk-remote-9f3a and sk-remote-9f3a')).toBe('eu, fr: [redacted] and [redacted]');
  });

  it('a value of 8 characters or more under a plain name is redacted all the same, whole (no scheme read into it)', async () => {
    const credentials = withHeaders({ 'x-note': 'hello world', 'x-tenant': 'tenant-eu-west-1' });
    await credentials.headersFor(remote.cardUrl);
    expect(credentials.secrets).toEqual(['tenant-eu-west-1', 'hello world']);
    expect(credentials.redact('world of tenant-eu-west-1: hello world')).toBe('world of [redacted]: [redacted]');
  });

  it('a short value under a name that says credential, or a short bearer token, is refused before anything is sent', async () => {
    await expect(withHeaders({ 'x-session-id': 'abc12' }).headersFor(remote.cardUrl)).rejects.toThrow(
      'the value a2a.headers gave for x-session-id is 5 characters long: credentials under 8 characters are refused',
    );
    await expect(withHeaders({ Cookie: 'id=1' }).headersFor(remote.cardUrl)).rejects.toThrow('the value a2a.headers gave for Cookie is 4 characters long');
    await expect(withHeaders({ authorization: 'Bearer abcd' }).headersFor(remote.cardUrl)).rejects.toThrow('the credentials in the value a2a.headers gave for authorization is 4 characters long');
  });

  it('property: whatever the name and value, a value is refused, redacted or plain exactly as its name and length say', async () => {
    const name = fc.oneof(fc.constantFrom('x-tenant', 'x-api-key', 'authorization', 'x-region', 'cookie', 'x-auth'), fc.stringMatching(/^[a-z][a-z-]{0,15}$/));
    // No spaces: a `<scheme> <credentials>` value has its own test above.
    const value = fc.stringMatching(/^[!-~]{1,14}$/);
    await fc.assert(
      fc.asyncProperty(name, value, async (n, v) => {
        const credentials = withHeaders({ [n]: v });
        const sent = await credentials.headersFor(remote.cardUrl).then(
          (headers) => headers.get(n),
          () => undefined,
        );
        if (isCredentialHeader(n) && v.length < MIN_CREDENTIAL_LENGTH) expect(sent).toBeUndefined();
        else expect(sent).toBe(v);
        if (sent !== undefined) expect(credentials.secrets.includes(v)).toBe(v.length >= MIN_CREDENTIAL_LENGTH || isCredentialHeader(n));
      }),
      { numRuns: 500 },
    );
  });
});
