/**
 * The tools of our own MCP server, built with the SDK: the same set served over stdio (the
 * script `stdio-test-server.ts`) and Streamable HTTP (`http-test-server.ts`), each with a
 * behaviour an attacker test needs (huge output, a crash mid-call, a call that waits to be
 * cancelled, an odd name).
 *
 * @module
 */
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import * as z from 'zod';

/** What the server tells the test about itself (its cancellations). */
export interface TestServerEvents {
  /** A call of `wait` was cancelled (notifications/cancelled reached the server). */
  cancelled(label: string): void;
  /** A call of `wait` started. */
  started(label: string): void;
}

/** A tool with characters a model does not accept in a name. */
export const ODD_TOOL_NAME = 'odd.name/with spaces!';

/** An MCP server with the test tools. */
export function testMcpServer(events: TestServerEvents): McpServer {
  const server = new McpServer({ name: 'rxharness-test', version: '1.0.0' });
  server.registerTool('echo', { description: 'Echoes its text.', inputSchema: { text: z.string() } }, ({ text }) => ({
    content: [{ type: 'text', text: `echo: ${text}` }],
  }));
  server.registerTool('read_note', { description: 'Reads a note.', inputSchema: { path: z.string(), lines: z.number().optional() } }, ({ path }) => ({
    content: [{ type: 'text', text: `note at ${path}` }],
  }));
  server.registerTool('add', { description: 'Adds two numbers.', inputSchema: { a: z.number(), b: z.number() } }, ({ a, b }) => ({
    content: [{ type: 'text', text: String(a + b) }],
  }));
  server.registerTool('huge', { description: 'Answers `chars` characters.', inputSchema: { chars: z.number() } }, ({ chars }) => ({
    content: [{ type: 'text', text: `${'a'.repeat(chars - 3)}END` }],
  }));
  server.registerTool('fail', { description: 'Always fails.' }, () => ({ content: [{ type: 'text', text: 'it went wrong' }], isError: true }));
  server.registerTool('crash', { description: 'Kills the server mid-call.' }, () => {
    process.stderr.write('crash: exiting on purpose\n');
    process.exit(3);
  });
  server.registerTool('wait', { description: 'Waits until cancelled (or `ms`).', inputSchema: { label: z.string(), ms: z.number().optional() } }, ({ label, ms }, extra) => {
    events.started(label);
    return new Promise((resolve) => {
      const timer = ms === undefined ? undefined : setTimeout(() => resolve({ content: [{ type: 'text', text: `waited ${label}` }] }), ms);
      extra.signal.addEventListener('abort', () => {
        clearTimeout(timer);
        events.cancelled(label);
        resolve({ content: [{ type: 'text', text: 'cancelled' }] });
      });
    });
  });
  // The SDK warns about such a name on the console; the test wants it anyway.
  const warn = console.warn;
  console.warn = () => undefined;
  try {
    server.registerTool(ODD_TOOL_NAME, { description: 'A tool with an odd name.' }, () => ({ content: [{ type: 'text', text: 'odd ok' }] }));
  } finally {
    console.warn = warn;
  }
  return server;
}
