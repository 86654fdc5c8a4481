/**
 * Our MCP test server over stdio, run as `node --import tsx stdio-test-server.ts`. With
 * `MCP_TEST_MARKS=<file>` it appends `started <label>` / `cancelled <label>` lines there, so a
 * test sees what reached the server; with `MCP_TEST_HANG=1` it never answers the handshake
 * (a server that hangs on start); with `MCP_TEST_EXIT=1` it exits at once (one that fails);
 * with `MCP_TEST_NOISE=1` it prints lines that are not JSON-RPC to stdout (a chatty server).
 *
 * @module
 */
import { appendFileSync } from 'node:fs';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { testMcpServer } from './test-server-tools.js';

const marks = process.env['MCP_TEST_MARKS'];
const mark = (line: string): void => {
  if (marks) appendFileSync(marks, `${line}\n`);
};

if (process.env['MCP_TEST_EXIT'] === '1') {
  process.stderr.write('cannot start: no configuration\n');
  process.exit(2);
}
if (process.env['MCP_TEST_HANG'] === '1') {
  // Reads stdin (so the process stays) and never answers.
  process.stdin.resume();
  mark(`pid ${process.pid}`);
} else {
  if (process.env['MCP_TEST_NOISE'] === '1') process.stdout.write('Server starting... not JSON\n{"half": \n');
  const server = testMcpServer({ started: (label) => mark(`started ${label}`), cancelled: (label) => mark(`cancelled ${label}`) });
  await server.connect(new StdioServerTransport());
  mark(`pid ${process.pid}`);
}
