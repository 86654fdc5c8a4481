import { createServer } from 'node:http';
import { createDemoModel, HarnessEngine, sseHandler } from 'rxharness';

const engine = new HarnessEngine({ model: createDemoModel({ chunkDelayMs: 0 }) });

// GET /?prompt=... streams the run as server-sent events; a client that disconnects aborts the run.
const server = createServer(sseHandler((req) => engine.stream(new URL(req.url ?? '/', 'http://x').searchParams.get('prompt') ?? 'Survey this project')));
server.listen(0, '127.0.0.1');
await new Promise((resolve) => server.once('listening', resolve));
const { port } = server.address() as { port: number };

// A client: count the `data:` messages until the `end` event.
const response = await fetch(`http://127.0.0.1:${port}/?prompt=Survey`);
console.log(response.headers.get('content-type'));
const body = await response.text();
console.log(`${body.split('\n').filter((line) => line.startsWith('data: {"type"')).length} events, then`, body.includes('event: end') ? 'end' : 'no end');
server.close();
