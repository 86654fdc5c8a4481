import http from 'node:http';
import { build } from 'esbuild';
import type { Page } from 'playwright-core';
import { afterEach, describe, expect, it } from 'vitest';
import { HarnessEngine } from '../../src/engine/harness-engine.js';
import { runsHandler } from '../../src/http/runs-handler.js';
import { ScriptedModel } from '../../src/model/scripted-model.js';
import { testAgent } from '../support/agent-turns.js';
import { chromiumPerFile, HAS_CHROMIUM } from '../support/chromium-per-file.js';
import { scriptedRoutes, scriptedSteps } from '../support/scripted-routes.js';
import { makeWorkspace, type TestWorkspace } from '../support/tool-context.js';
import { listen, oneTo } from '../http/http-kit.js';

const browser = chromiumPerFile();
let page: Page | undefined;
let stop: (() => Promise<void>) | undefined;
afterEach(async () => {
  await page?.context().close();
  await stop?.();
  page = stop = undefined;
});

/** The client entry as one browser script: `window.rxh` holds its exports. */
async function clientScript(): Promise<string> {
  const result = await build({
    entryPoints: [new URL('../../src/client/index.ts', import.meta.url).pathname],
    bundle: true, platform: 'browser', format: 'iife', globalName: 'rxh', target: 'es2020', write: false, logLevel: 'silent',
  });
  return result.outputFiles[0]!.text;
}

/** What the page does: start a run, follow it, answer any approval, report what it saw. */
const FOLLOW = `
window.followed = (async () => {
  const { runId } = await rxh.startRun('/api', { prompt: 'go' });
  const seqs = [], kinds = [];
  let text = '';
  await new Promise((resolve, reject) => rxh.fromRun('/api', runId, { retryDelayMs: 50 }).subscribe({
    next: ({ seq, event }) => {
      seqs.push(seq);
      const item = rxh.toUiItem(event);
      if (!item) return;
      kinds.push(item.kind);
      if (item.kind === 'approval-pending') rxh.answerApproval('/api', runId, item, 'approve').catch(reject);
      if (item.kind === 'result') text = item.text;
    },
    complete: resolve,
    error: reject,
  }));
  return { runId, seqs, kinds, text };
})();`;

interface Followed {
  readonly runId: string;
  readonly seqs: number[];
  readonly kinds: string[];
  readonly text: string;
}

/** An engine with a worker task whose bash call asks, served with a page that runs FOLLOW. */
async function serve(cutFirstStreamAfterBytes?: number): Promise<{ url: string; engine: HarnessEngine; model: ScriptedModel; streams: () => number }> {
  const ws: TestWorkspace = await makeWorkspace();
  const model = new ScriptedModel(
    scriptedRoutes({
      main: scriptedSteps({ text: 'Delegating. '.repeat(10), toolCalls: [{ name: 'task', args: { agent_name: 'worker', prompt: 'p', description: 'd' } }] }),
      worker: scriptedSteps({ toolCalls: [{ id: 'c-1', name: 'bash', args: { command: 'echo from-the-browser' } }] }),
    }),
    { chunkSize: 4, chunkDelayMs: 5 },
  );
  const engine = new HarnessEngine({ model, workspace: ws.dir, homeDir: ws.home });
  engine.agents.add(testAgent('worker'));
  const runs = runsHandler(engine, { basePath: '/api', fallthrough: true });
  const html = `<!doctype html><meta charset="utf-8"><script>${(await clientScript()).replaceAll('</script', '<\\/script')}</script><script>${FOLLOW}</script>`;
  let streams = 0;
  const server = http.createServer((req, res) => {
    if (req.url?.endsWith('/events') || req.url?.includes('/events?')) {
      streams += 1;
      if (streams === 1 && cutFirstStreamAfterBytes !== undefined) {
        // the server side drops the first event stream mid-run, as a restarting proxy would
        let written = 0;
        const write = res.write.bind(res) as (chunk: string) => boolean;
        res.write = ((chunk: string) => {
          written += chunk.length;
          if (written > cutFirstStreamAfterBytes) return void res.socket?.destroy(), true;
          return write(chunk);
        }) as typeof res.write;
      }
    }
    if (runs(req, res)) return;
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(html);
  });
  const url = await listen(server);
  stop = async () => {
    await engine.close();
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
    await ws.cleanup();
  };
  return { url, engine, model, streams: () => streams };
}

async function follow(url: string): Promise<Followed> {
  page = await (await browser()).newPage();
  await page.goto(url);
  try {
    return (await page.evaluate('window.followed')) as Followed;
  } catch (error) {
    // the page's stack names http URLs, which vitest would try to read as files: keep the message
    throw new Error(`the page failed: ${(error as Error).message.split('\n', 1)[0]}`);
  }
}

describe.skipIf(!HAS_CHROMIUM)('rxharness/client in headless Chromium, against runsHandler', () => {
  it('the bundle starts a run, follows it to its end and answers a nested approval', async () => {
    const served = await serve();
    const seen = await follow(served.url);
    expect(seen.seqs).toEqual(oneTo(seen.seqs.length));
    expect(seen.kinds).toContain('task-start');
    expect(seen.kinds).toContain('approval-pending');
    expect(seen.kinds.at(-1)).toBe('result');
    expect(seen.text).toContain('from-the-browser');
    expect(served.engine.runs.get(seen.runId)?.state).toBe('done');
  });

  it('when the server drops the stream mid-run, the page resumes after its last seq: no gap, no duplicate, one run', async () => {
    const served = await serve(1500);
    const seen = await follow(served.url);
    expect(served.streams()).toBeGreaterThanOrEqual(2); // it really reconnected
    expect(seen.seqs).toEqual(oneTo(seen.seqs.length));
    expect(seen.text).toContain('from-the-browser');
    expect(served.engine.runs.list()).toHaveLength(1);
    expect(served.model.requests.map((r) => r.sender?.agentName)).toEqual(['main', 'worker', 'worker', 'main']);
  });
});
