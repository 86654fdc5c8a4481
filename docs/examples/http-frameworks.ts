import express from 'express';
import Fastify from 'fastify';
import { lastValueFrom, toArray } from 'rxjs';
import { HarnessEngine, runsHandler, ScriptedModel } from 'rxharness';
import { fromRun, startRun } from 'rxharness/client';

const engine = new HarnessEngine({ model: new ScriptedModel(() => ({ text: 'Hello from a framework.' })) });

// Express: mount it under a path (Express strips the mount path); other requests go on to next().
const app = express();
app.use('/api', runsHandler(engine));
const expressServer = app.listen(0, '127.0.0.1');
await new Promise((resolve) => expressServer.once('listening', resolve));

// Fastify: hand it the raw request and response before Fastify reads the body, and take the reply over.
const fastify = Fastify();
const runs = runsHandler(engine, { basePath: '/api', fallthrough: true });
fastify.addHook('onRequest', (request, reply, done) => {
  if (runs(request.raw, reply.raw)) reply.hijack();
  else done(); // not ours: Fastify's own routes answer
});
const fastifyAddress = await fastify.listen({ port: 0, host: '127.0.0.1' });

for (const [name, api] of [['express', `http://127.0.0.1:${(expressServer.address() as { port: number }).port}/api`], ['fastify', `${fastifyAddress}/api`]]) {
  const { runId } = await startRun(api!, { prompt: 'Say hello' });
  const events = await lastValueFrom(fromRun(api!, runId).pipe(toArray()));
  const end = events.at(-1)!.event;
  console.log(`${name}: ${events.length} events, then ${end.type === 'RunEnd' ? end.text : end.type}`);
}

await engine.close();
expressServer.close();
await fastify.close();
