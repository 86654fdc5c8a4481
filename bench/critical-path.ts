/**
 * Not part of `npm run bench`: where `call()` spends wall time that the limit does not, on
 * the critical path between the requests of one run (`node --import tsx bench/critical-path.ts`).
 * A `fetch` that notes when each request is sent and when its body has been read; medians over
 * 20 interleaved runs of `call()` and the limit: `pre` (call to first request), `g1` (end of the
 * first response to the last child request sent), `g2` (last child response read to the final
 * request sent), `post` (final response read to the call resolved).
 *
 * @module
 */
import { DELEGATION } from './scenarios/delegation.js';
import { benchClient } from './support/bench-client.js';
import { delegationEngine } from './support/delegation-engine.mjs';
import { limitRun } from './support/limit-client.js';
import { startServer } from './support/server-process.js';
import { median } from './support/stats.js';
import { makeTempDirs } from './support/temp-dirs.js';

const server = await startServer('delegation');
const dirs = await makeTempDirs();
type Ev = { t: number; kind: 'send' | 'end'; i: number };
let log: Ev[] = [];
let n = 0;
const timing: typeof fetch = async (url, init) => {
  const i = n++;
  log.push({ t: performance.now(), kind: 'send', i });
  const res = await fetch(url, init);
  const reader = res.body!.getReader();
  const body = new ReadableStream({
    async pull(c) { const r = await reader.read(); if (r.done) { log.push({ t: performance.now(), kind: 'end', i }); c.close(); } else c.enqueue(r.value); },
  });
  return new Response(body, { status: res.status, headers: res.headers });
};
const bodies: unknown[] = [];
const cap: typeof fetch = (u, init) => { bodies.push(JSON.parse(String(init?.body))); return fetch(u, init); };
await (await delegationEngine({ ...dirs, baseURL: server.baseURL, client: benchClient(server.baseURL, cap) })).call(DELEGATION.mainPrompt);
const engine = await delegationEngine({ ...dirs, baseURL: server.baseURL, client: benchClient(server.baseURL, timing) });
const gaps = { call: { g1: [] as number[], g2: [] as number[], pre: [] as number[], post: [] as number[] }, limit: { g1: [] as number[], g2: [] as number[], pre: [] as number[], post: [] as number[] } };
for (let r = 0; r < 23; r++) {
  for (const side of ['call', 'limit'] as const) {
    log = []; n = 0;
    const t0 = performance.now();
    if (side === 'call') await engine.call(DELEGATION.mainPrompt); else await limitRun(server.baseURL, bodies, 4, timing);
    const t1 = performance.now();
    if (r < 3) continue;
    const ends = log.filter((e) => e.kind === 'end'); const sends = log.filter((e) => e.kind === 'send');
    const firstEnd = ends.find((e) => e.i === 0)!.t;
    const childSends = sends.filter((e) => e.i >= 1 && e.i <= 4).map((e) => e.t);
    const childEnds = ends.filter((e) => e.i >= 1 && e.i <= 4).map((e) => e.t);
    gaps[side].pre.push(sends[0]!.t - t0);
    gaps[side].g1.push(Math.max(...childSends) - firstEnd);
    gaps[side].g2.push(sends.find((e) => e.i === 5)!.t - Math.max(...childEnds));
    gaps[side].post.push(t1 - ends.find((e) => e.i === 5)!.t);
  }
}
for (const side of ['call', 'limit'] as const) console.log(side, Object.entries(gaps[side]).map(([k, v]) => `${k} ${median(v).toFixed(2)} ms`).join(', '));
await server.close(); await dirs.remove();
