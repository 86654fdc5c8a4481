import { HarnessEngine, ScriptedModel } from 'rxharness';

// A scripted model standing in for a real one: it reads a file through the MCP server,
// tries to write one, then answers.
const model = new ScriptedModel([
  { toolCalls: [{ name: 'mcp__fs__read_text_file', args: { path: 'docs/tools.md', head: 1 } }] },
  { toolCalls: [{ name: 'mcp__fs__write_file', args: { path: 'notes.txt', content: 'hi' } }] },
  { text: 'The tools guide starts with its title.' },
]);

const engine = new HarnessEngine({
  model,
  // The filesystem server from the MCP registry, over stdio, allowed into this folder.
  // It starts with the first run and stops with engine.close().
  mcpServers: { fs: { command: 'npx', args: ['-y', '@modelcontextprotocol/server-filesystem', '.'] } },
  // Its tools are rules' tools like any other; the subject is the `path` argument.
  permissionRules: [{ tool: 'mcp__fs__write_file', action: 'deny' }],
  subagentEnabled: false,
});

engine.stream('What does the tools guide start with?').subscribe({
  next: (event) => {
    if (event.type === 'Warning') console.log(`warning: ${event.message}`);
    if (event.type === 'ToolCallEnd') console.log(`${event.toolName}: ${event.text}`);
    if (event.type === 'RunEnd') console.log(`answer: ${event.text}`);
  },
  // A stdio server is a child process: close the engine to end it.
  complete: () => void engine.close(),
});
