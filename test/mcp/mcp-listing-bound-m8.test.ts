import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { measuredJson } from '../../src/mcp/mcp-json-size.js';
import { McpServers } from '../../src/mcp/mcp-servers.js';
import type { McpStdioServerConfig } from '../../src/mcp/mcp-server-config.js';
import { MCP_LISTING_MAX_BYTES } from '../../src/mcp/mcp-tool-listing.js';
import { oversizedSchema } from '../../src/mcp/mcp-tool-limits.js';
import { connectionPerTest } from './support/connection-per-test.js';

const SERVER = fileURLToPath(new URL('./support/m8-bulky-stdio-server.mjs', import.meta.url));
const bulky = (env: Record<string, string>): McpStdioServerConfig => ({ command: process.execPath, args: [SERVER], env, startTimeoutMs: 60_000 });
const mcp = connectionPerTest();
const ALL = { names: [], select: { servers: () => true, keep: (names: readonly string[]) => names } };
let dir: string | undefined;
let servers: McpServers | undefined;
afterEach(async () => {
  await servers?.close();
  servers = undefined;
  if (dir !== undefined) await rm(dir, { recursive: true, force: true });
  dir = undefined;
});

// Every page was kept whole, each tool with its 9.5 MiB description, annotations and `_meta`:
// 100 pages held some 958 MiB after the start. Pages of 3 MiB here: 16 MiB is passed at the sixth.
describe('an MCP server listing 100 pages of one tool each, each with a 3 MiB description', () => {
  it('stops paging past 16 MiB, keeps the tools so far trimmed (description cut, no _meta or annotations), and says so', async () => {
    dir = await mkdtemp(join(tmpdir(), 'm8-marks-'));
    const marks = join(dir, 'pages');
    const c = await mcp.connect('fat', bulky({ M8_MODE: 'fat-pages', M8_MARKS: marks }));
    expect(c.problem).toBeUndefined();
    expect(MCP_LISTING_MAX_BYTES).toBe(16 * 1024 * 1024);
    expect(c.tools.map((t) => t.name)).toEqual(['t0', 't1', 't2', 't3', 't4']);
    const asked = (await readFile(marks, 'utf8')).trim().split('\n');
    expect(asked).toEqual(['page 0', 'page 1', 'page 2', 'page 3', 'page 4', 'page 5']);
    for (const tool of c.tools) {
      expect(Buffer.byteLength(tool.description ?? '')).toBeLessThanOrEqual(4096);
      expect(tool.description).toMatch(/\[description cut at 4 KiB by rxharness\]$/);
      expect(Object.keys(tool).sort()).toEqual(['description', 'inputSchema', 'name']);
    }
    expect(c.malformed).toEqual([
      'MCP server "fat" lists tools that come to more than 16 MiB (their JSON, across its pages), so rxharness stopped reading its listing there: the 5 well-formed tools among the first 5 entries are kept, the rest are left out; have the server list fewer or smaller tools (descriptions, schemas, annotations).',
    ]);
    await expect(c.call('t4', {}, new AbortController().signal)).resolves.toMatchObject({ content: [{ text: 't4 ran' }] });
  }, 60_000);
});

// Kept whole until offered: a 9.5 MiB `enum` as an input schema ran the engine out of memory.
describe('an MCP server listing a tool whose input and output schemas are 1 MiB enums', () => {
  it('keeps the tool with both schemas dropped at once (the input schema\'s verdict kept), and leaves it out when offered', async () => {
    const c = await mcp.connect('fat', bulky({ M8_MODE: 'fat-schema' }));
    expect(c.problem).toBeUndefined();
    const [fat, echo] = c.tools;
    expect(fat).toEqual({
      name: 'fat',
      title: expect.stringMatching(/^T+ \[description cut at 4 KiB by rxharness\]$/),
      description: expect.stringMatching(/^d+ \[description cut at 4 KiB by rxharness\]$/),
      inputSchema: { type: 'object' },
      inputSchemaTooLarge: 'an input schema over the limit of 64 KiB',
      outputSchema: { type: 'object' },
    });
    expect(echo).toEqual({ name: 'echo', description: 'Answers.', inputSchema: { type: 'object' } });
    await expect(c.call('echo', {}, new AbortController().signal)).resolves.toMatchObject({ content: [{ text: 'echo ran' }] });
  }, 60_000);

  it('offers echo only, warning that fat is left out for its input schema', async () => {
    servers = new McpServers({ fat: bulky({ M8_MODE: 'fat-schema' }) }, process.cwd());
    const { tools, warnings } = await servers.toolsFor(ALL);
    expect(tools.map((t) => t.name)).toEqual(['mcp__fat__echo']);
    expect(warnings).toEqual([{ code: 'mcp-tool-skipped', message: 'MCP server "fat" offers mcp__fat__fat with an input schema over the limit of 64 KiB; it is left out.' }]);
  }, 60_000);
});

describe('measuring a schema', () => {
  it('stops at the bound: a list too long is over by its length, before its items are walked', () => {
    // Items that would each throw if walked: the length alone says it is over.
    const trap = new Proxy([], {
      get: (target, key) => {
        if (key === 'length') return 1_000_000;
        if (typeof key === 'string' && /^\d+$/.test(key)) throw new Error(`item ${key} was walked`);
        return Reflect.get(target, key);
      },
    });
    expect(measuredJson({ enum: trap }, 65_536)).toEqual({ over: 'bytes' });
    expect(oversizedSchema({ type: 'object', enum: trap } as never)).toBe('an input schema over the limit of 64 KiB');
    expect(oversizedSchema({ type: 'object', enum: new Array(40_000).fill(0) })).toBe('an input schema over the limit of 64 KiB');
  });

  it('counts as JSON.stringify writes, in UTF-8 bytes', () => {
    const value = { a: [1, 'é', null, true, { b: '"\n' }], '': [], c: {}, d: -1.5e-7 };
    expect(measuredJson(value, 1_000)).toEqual({ bytes: Buffer.byteLength(JSON.stringify(value)) });
    expect(measuredJson(value, Buffer.byteLength(JSON.stringify(value)) - 1)).toEqual({ over: 'bytes' });
    expect(measuredJson({ a: { b: {} } }, 1_000, 2)).toEqual({ over: 'depth' });
  });
});
