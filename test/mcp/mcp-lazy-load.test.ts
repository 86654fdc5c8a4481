import { describe, expect, it } from 'vitest';
import { ENGINE_CALL_SCRIPT, modulesLoadedBy } from '../support/modules-loaded.js';

const sdkModulesLoadedBy = (script: string): Promise<string[]> => modulesLoadedBy('@modelcontextprotocol/sdk', script);

describe('the MCP SDK loads only when a server starts', () => {
  it('is not loaded by importing the package, nor by an engine that runs without MCP servers', async () => {
    const loaded = await sdkModulesLoadedBy(ENGINE_CALL_SCRIPT);
    expect(loaded).toEqual([]);
  });

  it('is loaded by a connection that starts a server (the recorder sees it)', async () => {
    const loaded = await sdkModulesLoadedBy(`
      const { McpConnection } = await import('./src/mcp/mcp-connection.ts');
      const c = new McpConnection('x', { command: process.execPath, args: ['-e', 'process.exit(3)'] }, process.cwd());
      await c.ensure();
      if (!c.problem?.includes('failed to start')) throw new Error('unexpected: ' + c.problem);
    `);
    expect(loaded.some((url) => url.includes('/client/index.js'))).toBe(true);
    expect(loaded.some((url) => url.includes('/client/stdio.js'))).toBe(true);
  });
});
