import { describe, expect, it } from 'vitest';
import { testAgent } from '../support/agent-turns.js';
import { turnOf } from '../support/delegation-fixture.js';
import { steps, taskReply } from '../support/delegation-script.js';
import { marksFile, ourStdioServer } from '../mcp/support/mcp-configs.js';
import { HAS_REDIS } from './redis-server.js';
import { useScaleKits } from './scale-kit.js';

describe.skipIf(!HAS_REDIS)('MCP servers on a worker', () => {
  const scale = useScaleKits();

  it("a task on a worker calls the worker's own MCP server, narrowed as in-process; the worker closes it", async () => {
    const marks = await marksFile();
    try {
      const kit = await scale.kit();
      kit.fixture.route({
        main: steps(taskReply('explorer', 'echo it', 'mcp')),
        explorer: steps({ toolCalls: [{ name: 'mcp__t__echo', arguments: { text: 'from the worker' } }] }),
      });
      const config = { t: ourStdioServer(marks.env) };
      // The definition narrows the server to one tool: the child must see only that one.
      const explorer = { ...testAgent('explorer'), tools: ['mcp__t__echo'] };
      const engine = await kit.engine({ distributeTasks: true, mcpServers: config }, [explorer]);
      const worker = await kit.worker({ mcpServers: config });
      const { text } = await engine.call('go');
      expect(text).toContain('echo: from the worker');
      const child = kit.fixture.server.requests.find((r) => turnOf(r).agent === 'explorer')!;
      expect(turnOf(child).toolNames).toEqual(['mcp__t__echo']);
      const pids = (await marks.lines()).filter((l) => l.startsWith('pid ')).map((l) => Number(l.slice(4)));
      // One server in the engine's process (the main agent is offered its tools) and one on the worker.
      expect(pids).toHaveLength(2);
      await worker.close();
      await engine.close();
      for (const pid of pids) expect(() => process.kill(pid, 0)).toThrow();
    } finally {
      await marks.cleanup();
    }
  });
});
