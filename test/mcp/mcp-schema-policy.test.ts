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
import { ScriptedModel } from '../../src/model/scripted-model.js';
import type { Tool } from '../../src/tools/tool.js';
import { collect, own } from '../support/collect-events.js';
import { FakeOpenAIServer } from '../support/fake-openai-server.js';
import { openAIModelFor } from '../support/openai-model.js';
import { REPO } from './support/mcp-configs.js';

// The three schemas calls cannot wholly be checked against (schema-kinds.ts), listed by a real
// server, through both paths and the one policy (`schemaVerdict`): the engine's MCP path keeps
// the lookahead's tool with a warning, keeps the invalid one checking only the shape (with a
// warning too), and
// leaves the costly one out; a tools function handing the same listing on as the user's own
// tools has each refused, the costly one included (before, ajv compiled it).

const SERVER: McpStdioServerConfig = {
  command: process.execPath,
  args: ['--import', 'tsx', fileURLToPath(new URL('./support/schema-kinds-stdio-server.ts', import.meta.url))],
  cwd: REPO,
};

const closing: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const close of closing.splice(0).reverse()) await close();
});

async function folders(): Promise<{ ws: string; home: string }> {
  const dir = await mkdtemp(join(tmpdir(), 'rx-mcp-policy-'));
  closing.push(() => rm(dir, { recursive: true, force: true }));
  await mkdir(join(dir, 'ws'));
  await mkdir(join(dir, 'home'));
  return { ws: join(dir, 'ws'), home: join(dir, 'home') };
}

describe("an MCP server's three schemas calls cannot wholly be checked against", () => {
  it('through the engine: the lookahead and the invalid one kept with a warning, the costly one left out', async () => {
    const { ws, home } = await folders();
    const model = await FakeOpenAIServer.start({
      replies: [{ toolCalls: [{ name: 'mcp__k__lookahead', arguments: { name: 'tmpx' } }, { name: 'mcp__k__invalid', arguments: { a: 1 } }] }, { text: 'done' }],
    });
    closing.push(() => model.close());
    const engine = new HarnessEngine({ model: openAIModelFor(model), workspace: ws, homeDir: home, mcpServers: { k: SERVER } });
    closing.push(() => engine.close());
    const events = await collect(engine.stream('go'));
    expect(own(events, 'RunEnd')[0]!.abnormal).toBe(false);
    const warnings = own(events, 'Warning').map((w) => `${w.code}: ${w.message}`);
    expect(warnings).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^mcp-pattern-unenforced: MCP server "k": the pattern "\^\(\?!tmp\)" in the schema of mcp__k__lookahead is not checked here/),
        expect.stringMatching(/^mcp-tool-skipped: MCP server "k" offers mcp__k__costly with an input schema that cannot be checked against: its anyOf .* has 65 branches.*; it is left out\.$/),
      ]),
    );
    // Found when listed, against the meta-schema: the run is told at its start, not nothing.
    expect(warnings.filter((w) => w.includes('mcp__k__invalid'))).toEqual([expect.stringMatching(/^mcp-schema-invalid: MCP server "k": the input schema of mcp__k__invalid is not a valid JSON schema/)]);
    // The server's own checks are all there is for the lookahead and the invalid schema.
    expect(own(events, 'ToolCallEnd').map((e) => e.error ?? e.text)).toEqual(['lookahead got {"name":"tmpx"}', 'invalid got {"a":1}']);
  }, 60_000); // a server started through tsx, on a loaded machine

  it('through a tools function handing the listing on: each of the three refuses the run, naming the tool and why', async () => {
    const { ws } = await folders();
    const client = new Client({ name: 'user', version: '1.0.0' });
    await client.connect(new StdioClientTransport({ command: SERVER.command, args: [...(SERVER.args ?? [])], cwd: SERVER.cwd! }));
    closing.push(() => client.close());
    const listed = (await client.listTools()).tools;
    const runWith = async (name: string) => {
      const info = listed.find((t) => t.name === name)!;
      const tool: Tool = { name, description: 'd', parameters: info.inputSchema as JsonObject, execute: () => 'ran' };
      return new ReActAgent({ model: new ScriptedModel([{ text: 'done' }]), tools: async () => [tool], workspace: ws }).call('go');
    };
    const ends = { lookahead: await runWith('lookahead'), invalid: await runWith('invalid'), costly: await runWith('costly') };
    expect(Object.values(ends).map((r) => r.abnormal)).toEqual([true, true, true]);
    expect(ends.lookahead.error).toMatch(/^ReActAgent: the tool "lookahead": `parameters` has the pattern "\^\(\?!tmp\)", which the linear-time regex engine \(RE2\) cannot run/);
    expect(ends.invalid.error).toMatch(/^ReActAgent: the tool "invalid": `parameters` is not a valid JSON schema: /);
    expect(ends.costly.error).toMatch(/^ReActAgent: the tool "costly": `parameters` cannot be checked against: its anyOf at \/properties\/v has 65 branches, and at most 64 are compiled here/);
  }, 60_000);
});
