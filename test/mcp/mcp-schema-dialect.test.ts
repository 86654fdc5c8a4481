import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterEach, describe, expect, it } from 'vitest';
import { ReActAgent } from '../../src/agent/react-agent.js';
import type { JsonObject } from '../../src/events/json.js';
import { HarnessEngine } from '../../src/engine/harness-engine.js';
import type { McpStdioServerConfig } from '../../src/mcp/mcp-server-config.js';
import type { Tool } from '../../src/tools/tool.js';
import { collect, own } from '../support/collect-events.js';
import { FakeOpenAIServer } from '../support/fake-openai-server.js';
import { openAIModelFor } from '../support/openai-model.js';
import { REPO } from './support/mcp-configs.js';

// A server's input schema that names its dialect (`"$schema": ".../draft/2020-12/schema"`, as
// servers on newer schema libraries send) was offered by the engine's MCP path, which drops
// `$schema`, but refused when a tools function handed the same listing on as hand-written tools
// (`is not a valid JSON schema: no schema with key or ref ...`): every run of that agent ended
// abnormally. One rule now: the validator compiles a schema without its root `$schema`.

const SERVER: McpStdioServerConfig = {
  command: process.execPath,
  args: ['--import', 'tsx', fileURLToPath(new URL('./support/dialect-stdio-server.ts', import.meta.url))],
  cwd: REPO,
};

const closing: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const close of closing.splice(0).reverse()) await close();
});

/** The model's script: the same two calls (one too short a word), then an answer. */
async function modelServer(name: string): Promise<FakeOpenAIServer> {
  const server = await FakeOpenAIServer.start({
    replies: [{ toolCalls: [{ name, arguments: { word: 'hi' } }, { name, arguments: { word: 'x' } }] }, { text: 'done' }],
  });
  closing.push(() => server.close());
  return server;
}

/** What the calls ended with: a result's text or the error. */
const outcomes = (events: Awaited<ReturnType<typeof collect>>) => own(events, 'ToolCallEnd').map((e) => e.error ?? e.text);

describe('an MCP tool whose input schema names its dialect (2020-12)', () => {
  it('is offered and checked alike through the engine and through a tools function', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'rx-mcp-dialect-'));
    closing.push(() => rm(dir, { recursive: true, force: true }));
    await mkdir(join(dir, 'ws'));
    await mkdir(join(dir, 'home'));

    // The engine's MCP path.
    const engineModel = await modelServer('mcp__d__spell');
    const engine = new HarnessEngine({ model: openAIModelFor(engineModel), workspace: join(dir, 'ws'), homeDir: join(dir, 'home'), mcpServers: { d: SERVER } });
    closing.push(() => engine.close());
    const viaEngine = await collect(engine.stream('go'));
    expect(own(viaEngine, 'RunEnd')[0]!.abnormal).toBe(false);

    // A user's tools function handing the same server's listing on, as hand-written tools.
    const client = new Client({ name: 'user', version: '1.0.0' });
    await client.connect(new StdioClientTransport({ command: SERVER.command, args: [...(SERVER.args ?? [])], cwd: SERVER.cwd! }));
    closing.push(() => client.close());
    const tools = async (): Promise<Tool[]> =>
      (await client.listTools()).tools.map((t) => ({
        // Named as the engine names it, so the two paths' words can be compared whole.
        name: `mcp__d__${t.name}`,
        description: t.description ?? t.name,
        parameters: t.inputSchema as JsonObject,
        execute: async (args) => {
          const result = await client.callTool({ name: t.name, arguments: args });
          return (result.content as { text: string }[]).map((c) => c.text).join('');
        },
      }));
    const userModel = await modelServer('mcp__d__spell');
    const agent = new ReActAgent({ model: openAIModelFor(userModel), tools, workspace: join(dir, 'ws') });
    const viaTools = await collect(agent.stream('go'));
    expect(own(viaTools, 'RunEnd')[0]!.abnormal).toBe(false);

    // The same schema checks the same calls, in the same words.
    expect(outcomes(viaEngine)).toEqual(['spell got {"word":"hi"}', expect.stringMatching(/"word" must NOT have fewer than 2 characters/)]);
    expect(outcomes(viaTools)).toEqual(outcomes(viaEngine));
  }, 60_000); // two servers started through tsx, on a loaded machine
});
