/**
 * A FIFO planted where a session's transcript goes (a hostile workspace): over HTTP, opening
 * that conversation must answer at once with a 409 naming the file and how to remove it, not
 * hang the request nor answer a 500 "internal error".
 */
import { execFileSync } from 'node:child_process';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ScriptedModel } from '../../src/model/scripted-model.js';
import { FileSessionStore } from '../../src/session/file-session-store.js';
import { makeWorkspace, type TestWorkspace } from '../support/tool-context.js';
import { serveRuns, type RunsServer } from './http-kit.js';

let served: RunsServer | undefined;
let ws: TestWorkspace | undefined;
afterEach(async () => {
  await served?.close();
  await ws?.cleanup();
  served = ws = undefined;
});

describe('a conversation route on a session file that is a planted FIFO', () => {
  it('GET answers 409 at once, naming the FIFO and saying to remove it', async () => {
    ws = await makeWorkspace();
    const dir = join(ws.dir, '.rxharness', 'sessions');
    await mkdir(dir, { recursive: true });
    execFileSync('mkfifo', [join(dir, 'notes.jsonl')]);
    const sessions = new FileSessionStore(ws.dir, { grantKey: 'the user key, kept outside the workspace' });
    served = await serveRuns({ model: new ScriptedModel([]), sessions }, { basePath: '/api' });

    const opened = await fetch(`${served.url}/api/sessions/notes`, { signal: AbortSignal.timeout(10_000) });
    expect(opened.status).toBe(409);
    const { error } = (await opened.json()) as { error: string };
    expect(error).toMatch(/notes\.jsonl: it is a FIFO/);
    expect(error).toMatch(/rm '/);
    expect(error).not.toMatch(/internal error/);
  });
});
