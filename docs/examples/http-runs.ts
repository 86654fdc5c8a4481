import { createServer } from 'node:http';
import { lastValueFrom, toArray } from 'rxjs';
import { HarnessEngine, runsHandler, ScriptedModel } from 'rxharness';
import { fromRun, getRun, startRun } from 'rxharness/client';

const engine = new HarnessEngine({ model: new ScriptedModel([{ text: 'Runs live on the server, not on the connection.', chunkSize: 8 }]) });

// The routes under /api: POST /api/runs, GET /api/runs/:id/events, DELETE /api/runs/:id, ...
const server = createServer(runsHandler(engine, { basePath: '/api' }));
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
const api = `http://127.0.0.1:${(server.address() as { port: number }).port}/api`;

// Start a run, then follow it: every event once, in order, numbered by `seq`.
const { runId } = await startRun(api, { prompt: 'Say something about runs' });
const events = await lastValueFrom(fromRun(api, runId).pipe(toArray()));
console.log(events.map(({ seq, event }) => `${seq} ${event.type}`).join(', '));

// Anyone can come back later and read it again, from any position.
const rest = await lastValueFrom(fromRun(api, runId, { after: events.length - 2 }).pipe(toArray()));
console.log(`after ${events.length - 2}:`, rest.map(({ seq, event }) => `${seq} ${event.type}`).join(', '));
console.log((await getRun(api, runId)).state);

await engine.close();
server.close();
