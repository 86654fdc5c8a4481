import { describe, expect, it } from 'vitest';
import { useDemoServers } from '../support/demo-servers.js';
import { rawRequest, type RawAnswer } from './raw-request.js';

/**
 * `rxharness serve` against what a page of another origin can make a browser send: simple
 * requests (no CORS preflight) on every route that changes something, with the cookie as a
 * page on another port of 127.0.0.1 gets it sent (SameSite counts that as the same site), and
 * `Origin: null` (a sandboxed frame, a `file:` page); preflights; and whether any answer lets
 * such a page read it, or any address carries the token.
 */
const servers = useDemoServers();

/** Every POST that starts, answers or changes something, on each front of the server. */
const POST_ROUTES = ['/api/runs', '/api/runs/run_1/approvals/call_1', '/api/sessions/ses_1/compact', '/api/chat', '/ag-ui', '/a2a'];
/** The content types a form or a no-cors fetch may send without a preflight (and one dressed as JSON in a parameter). */
const SIMPLE_TYPES = ['text/plain', 'text/plain; charset=application/json', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x'];

/** Fails unless `answer` lets no other origin read it or send more. */
function expectNoCors(what: string, answer: RawAnswer): void {
  const granted = Object.keys(answer.headers).filter((name) => name.startsWith('access-control-'));
  expect({ what, granted }).toEqual({ what, granted: [] });
}

describe('serve: requests a page of another origin can send', () => {
  it('a simple POST (form types, no preflight) is 415 on every route, even with the cookie and Origin: null; nothing runs', async () => {
    const { demo, fake } = await servers.start({ fake: () => ({ text: 'ran' }) });
    const cookie = `rxharness-token-${new URL(demo.url).port}=${demo.token}`;
    for (const path of POST_ROUTES) {
      for (const type of SIMPLE_TYPES) {
        for (const origin of ['null', 'http://127.0.0.1:8080']) {
          const headers = { cookie, origin, 'content-type': type, 'sec-fetch-site': 'same-site' };
          const answer = await rawRequest(new URL(path, demo.url).href, { method: 'POST', headers, body: { prompt: 'rm -rf ~', messages: [] } });
          expect({ path, type, status: answer.status }).toEqual({ path, type, status: 415 });
          expectNoCors(`${path} ${type}`, answer);
        }
      }
    }
    expect(demo.engine.runs.list()).toEqual([]);
    expect(fake!.requests).toHaveLength(0);
  });

  it('a preflight (what a JSON POST or a DELETE needs first) is 401 and grants nothing, so the request never follows', async () => {
    const { demo } = await servers.start();
    const cookie = `rxharness-token-${new URL(demo.url).port}=${demo.token}`;
    const preflights: Array<[string, string]> = [
      ['/api/runs', 'POST'],
      ['/api/runs/run_1', 'DELETE'],
      ['/api/runs/run_1/tasks/task_1', 'DELETE'],
      ['/api/sessions/ses_1', 'DELETE'],
      ['/api/chat', 'POST'],
      ['/ag-ui', 'POST'],
      ['/a2a', 'POST'],
    ];
    for (const [path, method] of preflights) {
      for (const origin of ['null', 'http://evil.example']) {
        // a browser sends no cookie with a preflight; one that did would be refused all the same
        const extras: Array<Record<string, string>> = [{}, { cookie }];
        for (const extra of extras) {
          const headers = { origin, 'access-control-request-method': method, 'access-control-request-headers': 'content-type', ...extra };
          const answer = await rawRequest(new URL(path, demo.url).href, { method: 'OPTIONS', headers });
          if (!('cookie' in extra)) expect({ path, method, status: answer.status }).toEqual({ path, method, status: 401 });
          expect({ path, method, allowed: answer.status < 300 }).toEqual({ path, method, allowed: false });
          expectNoCors(`OPTIONS ${path}`, answer);
        }
      }
    }
  });

  it('no answer, with the token or without, lets another origin read it: the page, JSON, event streams, the agent card', async () => {
    const { demo } = await servers.start();
    const origin = { origin: 'http://evil.example' };
    const auth = { ...origin, authorization: `Bearer ${demo.token}` };
    const at = (path: string): string => new URL(path, demo.url).href;
    const started = await rawRequest(at('/api/runs'), { method: 'POST', headers: auth, body: { prompt: 'hi' } });
    expect(started.status).toBe(201);
    const { runId } = JSON.parse(started.body) as { runId: string };
    const answers: Array<[string, RawAnswer]> = [
      ['POST /api/runs', started],
      ['GET /', await rawRequest(at('/'), { headers: origin })],
      ['GET events', await rawRequest(at(`/api/runs/${runId}/events`), { headers: auth })],
      ['GET run', await rawRequest(at(`/api/runs/${runId}`), { headers: auth })],
      ['GET sessions', await rawRequest(at('/api/sessions'), { headers: auth })],
      ['GET card', await rawRequest(at('/.well-known/agent-card.json'), { headers: auth })],
      ['GET card, no token', await rawRequest(at('/.well-known/agent-card.json'), { headers: origin })],
      ['POST /a2a', await rawRequest(at('/a2a'), { method: 'POST', headers: auth, body: { jsonrpc: '2.0', id: 1, method: 'GetTask', params: { id: 'task_x' } } })],
      ['POST /ag-ui, bad body', await rawRequest(at('/ag-ui'), { method: 'POST', headers: auth, body: {} })],
      ['POST /api/chat, bad body', await rawRequest(at('/api/chat'), { method: 'POST', headers: auth, body: {} })],
    ];
    expect(answers.find(([what]) => what === 'GET events')![1].body).toContain('event: end');
    expect(answers.find(([what]) => what === 'GET card, no token')![1].status).toBe(401);
    for (const [what, answer] of answers) {
      expectNoCors(what, answer);
      expect({ what, echoed: answer.body.includes(demo.token) }).toEqual({ what, echoed: false });
    }
  });

  it('the token is taken from a header or the cookie only: in the query of any route but the page it is refused and sets nothing', async () => {
    const { demo } = await servers.start();
    for (const path of ['/api/sessions', '/api/runs/run_1', '/.well-known/agent-card.json', '/index.html', '/api/runs/run_1/events']) {
      const answer = await rawRequest(new URL(`${path}?token=${demo.token}`, demo.url).href);
      expect({ path, status: answer.status }).toEqual({ path, status: 401 });
      expect(answer.headers['set-cookie']).toBeUndefined();
      expect(answer.body).not.toContain(demo.token);
    }
    const post = await rawRequest(new URL(`/api/runs?token=${demo.token}`, demo.url).href, { method: 'POST', body: { prompt: 'hi' } });
    expect(post.status).toBe(401);
    expect(demo.engine.runs.list()).toEqual([]);
  });

  it('logging in redirects only to a path of this server, without the token, whatever the address held', async () => {
    const { demo } = await servers.start();
    const origin = new URL(demo.url).origin;
    const targets: Array<[string, string]> = [
      [`/?token=${demo.token}&next=//evil.example`, '/?next=%2F%2Fevil.example'],
      [`/?token=${demo.token}&token=${demo.token}`, '/'],
      [`/?prompt=hi&token=${demo.token}#x`, '/?prompt=hi'],
    ];
    for (const [target, location] of targets) {
      const answer = await rawRequest(`${origin}${target}`, { headers: { 'sec-fetch-site': 'none' } }); // the printed address, typed
      expect({ target, status: answer.status, location: answer.headers.location }).toEqual({ target, status: 303, location });
      expect(answer.headers['referrer-policy']).toBe('no-referrer');
    }
  });
});
