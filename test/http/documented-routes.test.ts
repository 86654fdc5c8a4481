/**
 * Every request docs/http.md names under the runs handler (`GET /runs/:id`, `POST
 * /sessions/:id/compact`, ...: anywhere in the guide, the tables and the prose) is a route
 * `runsHandler` has: asked with real ids, it is neither a `405` (another method) nor a "not
 * found" path. A reader who follows a sentence of the guide to a request must find it there.
 */
import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { ScriptedModel } from '../../src/model/scripted-model.js';
import { serveRuns, type RunsServer } from './http-kit.js';

let served: RunsServer | undefined;
afterEach(async () => {
  await served?.close();
  served = undefined;
});

/** The `METHOD /runs...` and `METHOD /sessions...` requests the guide names, each once, without their queries. */
function documentedRequests(): string[] {
  const guide = readFileSync(new URL('../../docs/http.md', import.meta.url), 'utf8');
  const named = [...guide.matchAll(/`(GET|POST|DELETE) (\/(?:runs|sessions)[^`?\s]*)[^`]*`/g)].map(([, method, path]) => `${method!} ${path!}`);
  return [...new Set(named)];
}

describe('docs/http.md: the requests it names', () => {
  it('are routes of runsHandler: none answers 405 or "not found"', async () => {
    served = await serveRuns({ model: new ScriptedModel([{ text: 'hi' }]) });
    const { runId, sessionId } = await served.engine.start('go').result;
    const requests = documentedRequests();
    expect(requests).toContain('GET /runs/:id/events'); // the guide was read
    const refused: string[] = [];
    for (const request of requests) {
      const [method, path] = request.split(' ') as [string, string];
      const url = path
        .replace(/^\/runs\/:id/, `/runs/${runId}`)
        .replace(/^\/sessions\/:id/, `/sessions/${encodeURIComponent(sessionId)}`)
        .replace(':taskId', 'task_unknown')
        .replace(':approvalId', 'ap_unknown');
      const answer = await fetch(`${served.url}${url}`, { method, ...(method === 'GET' ? {} : { headers: { 'content-type': 'application/json' }, body: '{}' }) });
      const text = await answer.text();
      if (answer.status === 405 || (answer.status === 404 && text.includes('not found:'))) refused.push(`${request}: ${answer.status} ${text}`);
    }
    expect(refused).toEqual([]);
  });
});
