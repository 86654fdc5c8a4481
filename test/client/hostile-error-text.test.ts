/**
 * A hostile server's words end up in the client's error messages, and messages are printed
 * to terminals: its escape sequences and control characters must show as marks
 * (`<U+001B>`), never act (clear the screen, set the title, write the clipboard). The
 * fields that carry the server's words as data keep them as sent.
 */
import { lastValueFrom } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { fromRun, getRun } from '../../src/client/index.js';
import { frame, RUN, runStart, scriptedFetch } from './fake-events-server.js';

const ESCAPES = '\u001b]52;c;cm0gLXJmIH4=\u0007\u001b[2J\u009b1A\r\u0008';
/** C0 and C1 controls, escape included. */
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;

const failure = (promise: Promise<unknown>): Promise<Error> => promise.then(() => { throw new Error('expected a failure'); }, (e: unknown) => e as Error);

describe('the server\'s words in the client\'s errors', () => {
  it('`event: error`: the message marks the controls of the name and text; serverName keeps them', async () => {
    const data = JSON.stringify({ name: `Evil${ESCAPES}`, message: `gone${ESCAPES}` });
    const server = scriptedFetch(() => frame(1, runStart) + `event: error\ndata: ${data}\n\n`);
    const error = await failure(lastValueFrom(fromRun('http://x', RUN, { fetch: server.fetch })));
    expect(error).toMatchObject({ name: 'RunStreamError', serverName: `Evil${ESCAPES}` });
    expect(error.message).not.toMatch(CONTROL);
    expect(error.message).toContain('Evil<U+001B>]52;c;cm0gLXJmIH4=<U+0007><U+001B>[2J<U+009B>1A<U+000D><U+0008>: gone<U+001B>');
  });

  it('a message refused as BadMessage: the start of it is quoted with its controls marked', async () => {
    const server = scriptedFetch(() => frame(1, runStart) + `data: {"runId":"${RUN}","seq":2,"event":"${ESCAPES.replace(/[\u0000-\u001f\u007f-\u009f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)}"}\n\n`);
    const error = await failure(lastValueFrom(fromRun('http://x', RUN, { fetch: server.fetch })));
    expect(error).toMatchObject({ serverName: 'BadMessage' });
    expect(error.message).not.toMatch(CONTROL);
  });

  it('a raw control in the data of a refused message is marked too', async () => {
    const server = scriptedFetch(() => frame(1, runStart) + `data: not json ${ESCAPES.replace('\r', '')}\n\n`);
    const error = await failure(lastValueFrom(fromRun('http://x', RUN, { fetch: server.fetch })));
    expect(error).toMatchObject({ serverName: 'BadMessage' });
    expect(error.message).not.toMatch(CONTROL);
    expect(error.message).toContain('not json <U+001B>]52');
  });

  it('an error answer: RunRequestError\'s message marks the controls; serverError keeps them', async () => {
    const server = scriptedFetch(() => JSON.stringify({ error: `no such run${ESCAPES}` }), 404);
    const error = await failure(getRun('http://x', RUN, { fetch: server.fetch }));
    expect(error).toMatchObject({ name: 'RunRequestError', status: 404, serverError: `no such run${ESCAPES}` });
    expect(error.message).not.toMatch(CONTROL);
    expect(error.message).toContain('no such run<U+001B>]52');
  });
});
