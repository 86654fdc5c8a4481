import http, { type ServerResponse } from 'node:http';
import net from 'node:net';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { writeSseHeaders } from '../../src/adapters/sse-headers.js';
import { writeSseText } from '../../src/adapters/write-sse-text.js';
import { httpServerPerTest } from '../support/http-server-per-test.js';

const server = httpServerPerTest();

/** The raw bytes after the headers of the answer to `request` (ended by the server's close or the body's last chunk). */
async function rawBody(url: string, request: string): Promise<Buffer> {
  const { port } = new URL(url);
  const socket = server.track(net.connect(Number(port), '127.0.0.1'));
  socket.write(request);
  const parts: Buffer[] = [];
  await new Promise<void>((resolve, reject) => {
    socket.on('data', (part: Buffer) => {
      parts.push(part);
      if (Buffer.concat(parts).includes('\r\n0\r\n\r\n')) resolve();
    });
    socket.on('end', resolve);
    socket.on('error', reject);
  });
  const all = Buffer.concat(parts);
  return all.subarray(all.indexOf('\r\n\r\n') + 4);
}

const GET_1_1 = 'GET / HTTP/1.1\r\nHost: localhost\r\n\r\n';

/** The body bytes an HTTP/1.1 client receives when `texts` are written with `write`, then the response ended. */
async function bodyWrittenBy(write: (res: ServerResponse, text: string) => void, texts: readonly string[], request = GET_1_1): Promise<Buffer> {
  const url = await server.serve((_req, res) => {
    writeSseHeaders(res);
    for (const text of texts) write(res, text);
    res.end();
  });
  const body = await rawBody(url, request);
  await server.closeServer();
  return body;
}

const nodeWrite = (res: ServerResponse, text: string): void => void res.write(text);
const oneWrite = (res: ServerResponse, text: string): void => void writeSseText(res, text);

describe('writeSseText: one socket write per text, the bytes Node would send', () => {
  it('frames each text as Node frames a chunk, multi-byte characters counted in bytes, an empty text skipped', async () => {
    const texts = ['data: a\n\n', 'data: é中😀\n\n', '', ': keep-alive\n\n', 'x'.repeat(70_000)];
    const ours = await bodyWrittenBy(oneWrite, texts);
    expect(ours.toString('latin1')).toBe((await bodyWrittenBy(nodeWrite, texts)).toString('latin1'));
    expect(ours.toString('utf8').startsWith('9\r\ndata: a\n\n\r\n11\r\ndata: é中😀\n\n\r\n')).toBe(true);
    expect(ours.toString('latin1').endsWith('\r\n0\r\n\r\n')).toBe(true);
  });

  it('property: any texts give byte for byte what res.write gives', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.string({ unit: 'binary', maxLength: 300 }), { maxLength: 8 }), async (texts) => {
        const ours = await bodyWrittenBy(oneWrite, texts);
        expect(ours.equals(await bodyWrittenBy(nodeWrite, texts))).toBe(true);
      }),
      { numRuns: 40 },
    );
  });

  it('leaves the response to Node: framing on again, so an end from anywhere closes the body, and the connection is reused', async () => {
    const seen: boolean[] = [];
    const url = await server.serve((_req, res) => {
      writeSseHeaders(res);
      writeSseText(res, 'data: 1\n\n');
      seen.push(res.chunkedEncoding);
      setImmediate(() => res.end()); // not through writeSseText: Node's own end
    });
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    const get = (): Promise<{ body: string; reused: boolean }> =>
      new Promise((resolve, reject) => {
        const req = http.get(url, { agent }, (answer) => {
          let body = '';
          answer.setEncoding('utf8').on('data', (part: string) => (body += part));
          answer.on('end', () => resolve({ body, reused: req.reusedSocket }));
          answer.on('error', reject);
        });
        req.on('error', reject);
      });
    try {
      expect(await get()).toEqual({ body: 'data: 1\n\n', reused: false });
      expect(await get()).toEqual({ body: 'data: 1\n\n', reused: true });
      expect(seen).toEqual([true, true]);
    } finally {
      agent.destroy();
    }
  });

  it('frames a pipelined response written before its turn (no socket yet) as Node would', async () => {
    /** The raw answers to two pipelined GETs, the second written while the first is still open; Date lines dropped. */
    const pipelined = async (write: (res: ServerResponse, text: string) => void): Promise<string> => {
      let first: ServerResponse | undefined;
      const url = await server.serve((req, res) => {
        writeSseHeaders(res);
        write(res, `data: ${req.url}\n\n`);
        if (req.url === '/1') first = res;
        else {
          waited.push(res.socket === null);
          write(res, 'data: é\n\n');
          res.end();
          first!.end(); // only now does the second answer get the socket
        }
      });
      const socket = server.track(net.connect(Number(new URL(url).port), '127.0.0.1'));
      socket.write('GET /1 HTTP/1.1\r\nhost: x\r\n\r\nGET /2 HTTP/1.1\r\nhost: x\r\nconnection: close\r\n\r\n');
      let raw = '';
      socket.on('data', (part: Buffer) => (raw += part.toString('latin1')));
      await new Promise((resolve) => socket.once('close', resolve));
      await server.closeServer();
      return raw.replace(/^date: .*\r\n/gim, '');
    };
    const waited: boolean[] = [];
    const ours = await pipelined(oneWrite);
    expect(ours).toBe(await pipelined(nodeWrite));
    expect(waited).toEqual([true, true]);
    expect(ours.indexOf('data: /1')).toBeGreaterThan(0);
    expect(ours.indexOf('data: /2')).toBeGreaterThan(ours.indexOf('data: /1'));
    expect(ours.endsWith('\r\n0\r\n\r\n')).toBe(true);
  });

  it('writes an HTTP/1.0 answer, which is not chunked, as it is', async () => {
    const body = await bodyWrittenBy(oneWrite, ['data: a\n\n', 'data: b\n\n'], 'GET / HTTP/1.0\r\n\r\n');
    expect(body.toString('utf8')).toBe('data: a\n\ndata: b\n\n');
  });

  it("returns false when the socket is full, and the response's 'drain' follows once the client reads", async () => {
    let full: boolean | undefined;
    let drained!: () => void;
    const drain = new Promise<void>((resolve) => (drained = resolve));
    const url = await server.serve((_req, res) => {
      writeSseHeaders(res);
      full = !writeSseText(res, 'x'.repeat(4 * 1024 * 1024));
      res.once('drain', () => {
        drained();
        res.end();
      });
    });
    const answer = await fetch(url);
    expect((await answer.text()).length).toBe(4 * 1024 * 1024);
    await drain;
    expect(full).toBe(true);
  });
});
