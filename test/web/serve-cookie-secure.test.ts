import { describe, expect, it } from 'vitest';
import { useDemoServers } from '../support/demo-servers.js';
import { rawRequest } from './raw-request.js';

const servers = useDemoServers();
const TOKEN = 'abcdefghijklmnopqrstuvwxyz012345';

/** The login answer's cookie for `headers`, as a browser behind (or not behind) a proxy would get it, with the host a proxy forwards. */
async function loginCookie(headers: Record<string, string>): Promise<string> {
  const { demo } = await servers.start({ server: { host: '0.0.0.0', token: TOKEN } });
  const port = new URL(demo.url).port;
  const answer = await rawRequest(`http://127.0.0.1:${port}/?token=${TOKEN}`, { headers: { host: 'agent.example.com', ...headers } });
  expect(answer.status).toBe(303);
  return String(answer.headers['set-cookie']);
}

// Behind the HTTPS proxy the docs ask for on other addresses, a cookie without `Secure` would go
// in clear to a plain http:// page of the same host that an attacker on the network serves.
describe('the login cookie behind an HTTPS proxy', () => {
  it.each<Record<string, string>>([
    { 'x-forwarded-proto': 'https' },
    { 'x-forwarded-proto': 'HTTPS, http' },
    { forwarded: 'for=10.0.0.1;proto=https' },
    { forwarded: 'proto="https";by=proxy, proto=http' },
  ])('is Secure when the proxy says %j', async (headers) => {
    expect(await loginCookie(headers)).toMatch(/; Secure$/);
  });

  it.each<Record<string, string>>([
    {},
    { 'x-forwarded-proto': 'http' },
    { 'x-forwarded-proto': 'http, https' },
    { forwarded: 'for=10.0.0.1;proto=http, proto=https' },
    { forwarded: 'for=https' },
  ])('is not Secure over plain HTTP (%j): the browser would drop it there', async (headers) => {
    expect(await loginCookie(headers)).not.toContain('Secure');
  });
});
