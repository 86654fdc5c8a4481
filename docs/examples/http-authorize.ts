import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage } from 'node:http';
import { lastValueFrom, toArray } from 'rxjs';
import { HarnessEngine, runsHandler, ScriptedModel } from 'rxharness';
import { fromRun, startRun } from 'rxharness/client';

const engine = new HarnessEngine({ model: new ScriptedModel([{ text: 'Only for those who hold the token.' }]) });

// A secret for your clients (from your configuration in real life).
const token = randomBytes(24).toString('base64url');
const digest = (text: string) => createHash('sha256').update(text).digest();
// Compared in constant time: the answer's timing says nothing about a guess.
const authorize = (req: IncomingMessage): boolean => {
  const given = /^Bearer (\S+)$/.exec(req.headers.authorization ?? '')?.[1] ?? '';
  return timingSafeEqual(digest(given), digest(token));
};

const server = createServer(runsHandler(engine, { basePath: '/api', authorize, maxRuns: 4 }));
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
const api = `http://127.0.0.1:${(server.address() as { port: number }).port}/api`;

// Without the token: 401, and nothing runs.
await startRun(api, { prompt: 'hi' }).catch((error: { status: number }) => console.log('without the token:', error.status));

// With it (the client sends `Authorization: Bearer <token>`).
const { runId } = await startRun(api, { prompt: 'hi' }, { token });
const events = await lastValueFrom(fromRun(api, runId, { token }).pipe(toArray()));
const end = events.at(-1)!.event;
console.log('with the token:', end.type === 'RunEnd' ? end.text : end.type);

await engine.close();
server.close();
