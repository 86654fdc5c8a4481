/**
 * A conversation across a server that dies and a server that is not up yet (issue 23, items 2
 * and 5), on real `llama-server`s of its own (not the template suites' shared rig: these are
 * killed and started at will).
 *
 * - Mistral-Nemo, whose template refuses a conversation whose roles do not alternate: the
 *   server is killed while the model writes, restarted on the same port, and the next turn of
 *   the session is answered.
 * - `rxharness run` started two seconds before its server: it waits, says so once, and answers.
 */
import { setTimeout as delay } from 'node:timers/promises';
import { afterEach, describe, expect, inject, it } from 'vitest';
import { main } from '../src/cli/main.js';
import type { ChatMessage } from '../src/model/chat-message.js';
import { MemorySessionStore } from '../src/session/index.js';
import { testCliIO } from '../test/cli/test-cli-io.js';
import { record } from '../test/support/collect-events.js';
import { strictTemplateProblems } from '../test/support/strict-template.js';
import { freePort, LlamaServer } from './support/llama-server.js';
import { llamaModel, realEngine, Workspace } from './support/real-engine.js';
import { PARSER_ERROR } from './support/parser-errors.js';
import { EOS, template } from './support/templates.js';

const llama = inject('llama');
const dir = 'dir' in llama ? llama.dir : '';
const servers: LlamaServer[] = [];
const workspaces: Workspace[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.stop()));
  for (const w of workspaces.splice(0)) w.remove();
});

async function server(file: string | undefined, port?: number): Promise<LlamaServer> {
  const started = await LlamaServer.start(dir, file, 1, port);
  servers.push(started);
  return started;
}

describe.skipIf(dir === '')('servers that die and servers that are late (llama-server)', () => {
  it('Mistral-Nemo: the server killed mid-turn and restarted answers the next turn of the session', async () => {
    const nemo = template('Mistral-Nemo');
    const first = await server(nemo.file);
    const port = Number(new URL(first.url).port);
    const workspace = new Workspace();
    workspaces.push(workspace);
    const sessions = new MemorySessionStore();
    // A long reply (the random model never stops by itself): the server is killed while it writes.
    const long = realEngine(workspace, { model: llamaModel(first.baseURL, { maxTokens: 4_000 }), sessions });
    const run = record(long.stream('Tell me a long story.', { sessionId: 's' }));
    for (let i = 0; i < 1_000 && !run.events.some((e) => e.type === 'ReasonDelta'); i++) await delay(10);
    expect(run.events.some((e) => e.type === 'ReasonDelta'), 'the model never started writing').toBe(true);
    await first.kill();
    await run.done;
    expect(run.events.at(-1)).toMatchObject({ type: 'RunEnd', abnormal: true });
    await long.close();
    // The turn is closed in the session: the question kept, an answer saying it did not finish.
    const stored = sessions.load('s');
    expect(stored.map((m) => m.role)).toEqual(['user', 'assistant']);
    expect(stored[1]!.content).toMatch(/^\(No answer: this turn did not finish: /);

    const restarted = await server(nemo.file, port);
    const engine = realEngine(workspace, { model: llamaModel(restarted.baseURL, { maxTokens: 48 }, { logit_bias: { [EOS]: 2.5 } }), sessions });
    const result = await engine.call('Say hello.', { sessionId: 's' });
    await engine.close();
    expect(result.abnormal, result.error).toBe(false);
    const sent = sessions.load('s').slice(0, 3) as ChatMessage[];
    expect(strictTemplateProblems(sent)).toEqual([]);
  });

  it('rxharness run started two seconds before its server waits for it, says so once, and answers', async () => {
    // The random model ends on text the server's output parser cannot place now and then
    // (support/parser-errors.ts): a run ended by that error is tried again, at most twice.
    for (let attempt = 1; ; attempt++) {
      const port = await freePort();
      const workspace = new Workspace();
      workspaces.push(workspace);
      const io = testCliIO({ env: { HOME: workspace.dir }, cwd: workspace.dir });
      const args = ['run', '--json', '--model', 'tiny', '--base-url', `http://127.0.0.1:${port}/v1`, '--max-depth', '0', '--max-tokens', '32', '--extra-body', JSON.stringify({ logit_bias: { [EOS]: 2.5 } }), 'Say hello.'];
      const code = main(args, io);
      await delay(2_000);
      await server('Qwen-Qwen2.5-7B-Instruct.jinja', port);
      const exit = await code;
      const events = io.stdoutText().trim().split('\n').map((line) => JSON.parse(line) as { type: string; code?: string; abnormal?: boolean; error?: string });
      const end = events.at(-1);
      if (exit !== 0 && attempt < 3 && PARSER_ERROR.test(end?.error ?? '')) {
        await Promise.all(servers.splice(0).map((s) => s.stop()));
        continue;
      }
      expect(exit, `${io.stderrText()}\n${JSON.stringify(end)}`).toBe(0);
      expect(events.filter((e) => e.type === 'Warning')).toEqual([expect.objectContaining({ code: 'model-server-starting' })]);
      expect(end).toMatchObject({ type: 'RunEnd', abnormal: false });
      return;
    }
  });
});
