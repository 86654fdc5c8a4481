import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { shownUrl } from '../../src/text/shown-url.js';

// Whatever a url's user, password or query hold, written raw or escaped, shownUrl never
// shows a secret planted there; an ordinary url is still shown by its host and path.

const SECRET = 'Zq9SECRETq9Z'; // no part of a host, path or scheme below
const host = fc.constantFrom('mcp.internal', '10.0.0.5', 'localhost', '[::1]', 'a-b.example');
const port = fc.constantFrom('', ':80', ':3000', ':65535', ':99999'); // 99999: no parser reads it
const path = fc.array(fc.stringMatching(/^[a-z][a-z0-9._-]{0,7}$/), { maxLength: 3 }).map((parts) => parts.map((p) => `/${p}`).join(''));
const scheme = fc.constantFrom('http://', 'https://', 'redis://', 'ftp://', '//', '');
// Characters that end a url's parts, around the secret: a password may hold any of them.
const noise = fc.array(fc.constantFrom('', '@', '/', '?', '#', ':', '&', '=', '%40', ' ', 'x'), { maxLength: 3 }).map((cs) => cs.join(''));
const secret = fc.tuple(noise, noise).map(([before, after]) => `${before}${SECRET}${after}`);
const name = fc.stringMatching(/^[a-z]{1,6}$/);

const planted = fc.oneof(
  fc.record({ scheme, user: secret, host, port, path }).map((u) => `${u.scheme}${u.user}@${u.host}${u.port}${u.path}`),
  fc.record({ scheme, user: name, password: secret, host, port, path }).map((u) => `${u.scheme}${u.user}:${u.password}@${u.host}${u.port}${u.path}`),
  fc.record({ scheme, host, port, path, key: name, secret, more: fc.constantFrom('', '&a=b', '#frag', '#x@y') }).map(
    (u) => `${u.scheme}${u.host}${u.port}${u.path}?${u.key}=${u.secret}${u.more}`,
  ),
  fc.record({ scheme, user: name, password: secret, host, path, secret }).map((u) => `${u.scheme}${u.user}:${u.password}@${u.host}${u.path}?key=${u.secret}`),
);

describe('shownUrl, for any url', () => {
  it('never shows a secret planted in the user, the password or the query', () => {
    fc.assert(
      fc.property(planted, (url) => {
        expect(shownUrl(url).toLowerCase()).not.toContain(SECRET.toLowerCase()); // a host is shown in lower case
      }),
      { numRuns: 1000 },
    );
  });

  it('shows an ordinary url by its host and path', () => {
    const ordinary = fc.record({
      scheme: fc.constantFrom('http://', 'https://', 'redis://'),
      credentials: fc.constantFrom('', 'me@', 'me:pw@'),
      host: fc.constantFrom('mcp.internal', '10.0.0.5', 'localhost', 'a-b.example'),
      port: fc.constantFrom('', ':3000', ':65535'),
      path,
      query: fc.constantFrom('', '?key=abc', '?a=1&b=2', '#frag'),
    });
    fc.assert(
      fc.property(ordinary, (u) => {
        const shown = shownUrl(`${u.scheme}${u.credentials}${u.host}${u.port}${u.path}${u.query}`);
        expect(shown).toContain(`${u.host}${u.port}${u.path}`);
        expect(shown).not.toMatch(/pw|key=|a=1|frag/);
      }),
    );
  });
});
