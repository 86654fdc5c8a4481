import { createServer } from 'node:http';
import { HarnessEngine, runsHandler, ScriptedModel } from 'rxharness';

// A model that streams one word every 10 ms; it counts the runs it is asked for.
let modelRuns = 0;
const model = new ScriptedModel(() => (modelRuns++, { text: 'one two three four five six seven eight', chunkSize: 4, chunkDelayMs: 10 }));
const engine = new HarnessEngine({ model });
const server = createServer(runsHandler(engine));
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
const base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;

const started = await fetch(`${base}/runs`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ prompt: 'Count' }) });
const { runId } = (await started.json()) as { runId: string };

/** Reads the event stream, printing each message's seq, until `stopAfter` messages (then drops the connection) or its end. */
async function read(lastEventId: number, stopAfter = Infinity): Promise<number> {
  // Last-Event-ID is what an EventSource sends when it reconnects; ?after=N does the same.
  const response = await fetch(`${base}/runs/${runId}/events`, { headers: { 'last-event-id': String(lastEventId) } });
  const decoder = new TextDecoder();
  let text = '';
  let last = lastEventId;
  const seen: number[] = [];
  reading: for await (const chunk of response.body!) {
    text += decoder.decode(chunk, { stream: true });
    for (let end = text.indexOf('\n\n'); end >= 0; end = text.indexOf('\n\n')) {
      const message = text.slice(0, end);
      text = text.slice(end + 2);
      if (message.startsWith('event: end')) {
        console.log(`resumed: seen ${seen.join(' ')}, then event: end`);
        continue; // its id is one past the last seq: what tells an EventSource it saw the ending
      }
      const id = /^id: (\d+)$/m.exec(message);
      if (!id) continue;
      seen.push((last = Number(id[1])));
      if (seen.length === stopAfter) {
        console.log(`seen ${seen.join(' ')}, then the connection drops`);
        break reading; // leaving the loop cancels the body: the connection closes
      }
    }
  }
  return last;
}

const last = await read(0, 3);
console.log((await (await fetch(`${base}/runs/${runId}`)).json() as { state: string }).state); // the run went on
await read(last);
console.log(`the model ran ${modelRuns} time(s)`);

await engine.close();
server.close();
