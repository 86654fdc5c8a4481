import { beforeEach, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { sandboxPerTest } from './sandbox-per-test.js';

// `rxharness agents` (in process) on definition files written for other frameworks.

/** Every built-in tool: what a definition without a tool list gets. */
const ALL_TOOLS = ['read', 'write', 'edit', 'list', 'glob', 'grep', 'bash', 'todo'];

const sandbox = sandboxPerTest();
let explore: string;
let lead: string;
beforeEach(async () => {
  explore = await sandbox.workspace.file('.rxharness/agents/explore.md', '---\nname: explore\ndescription: My own explore.\n---\nYou explore.\n');
  lead = await sandbox.workspace.file('.rxharness/agents/lead.md', '---\nname: lead\ndescription: Leads the work.\nmode: primary\ncolor: "#ff8800"\n---\nYou lead.\n');
  await sandbox.workspace.file('.rxharness/agents/reviewer.md', '---\nname: reviewer\ndescription: Reviews.\ncolor: cyan\nmax_turns: 5\n---\nYou review.\n');
});

interface AgentsJson {
  agents: Array<Record<string, unknown>>;
  diagnostics: Array<{ file: string; reason: string }>;
}

describe('rxharness agents with other frameworks\' definitions', () => {
  it('--json lists the primary with its mode, colours where given, and the ignored explore.md (so exits 1)', async () => {
    const io = sandbox.io();
    expect(await main(['agents', '--json'], io)).toBe(1);
    const doc = JSON.parse(io.stdoutText()) as AgentsJson;
    expect(doc.agents.map((a) => [a.name, a.source])).toEqual([
      ['bash', 'builtin'], ['explore', 'builtin'], ['general', 'builtin'], ['lead', 'workspace'], ['plan', 'builtin'], ['reviewer', 'workspace'],
    ]);
    expect(doc.agents.find((a) => a.name === 'lead')).toEqual({ name: 'lead', description: 'Leads the work.', source: 'workspace', file: lead, mode: 'primary', color: '#ff8800', tools: [...ALL_TOOLS, 'task', 'multitask', 'generate'] });
    expect(doc.agents.find((a) => a.name === 'reviewer')).toMatchObject({ color: 'cyan' });
    expect(doc.agents.find((a) => a.name === 'reviewer')).not.toHaveProperty('mode');
    expect(doc.diagnostics).toEqual([{ file: explore, reason: expect.stringMatching(/^agent "explore" is a built-in agent; this file is ignored/) }]);
  });

  it('the text listing marks the primary and shows the diagnostic', async () => {
    const io = sandbox.io();
    expect(await main(['agents'], io)).toBe(1);
    const out = io.stdoutText();
    expect(out).toMatch(/^lead +\[workspace\] +Leads the work\. \(mode: primary\)$/m);
    expect(out).toMatch(/^explore +\[builtin\] +Fast read-only search/m);
    expect(out).toContain(`  ${explore}: agent "explore" is a built-in agent; this file is ignored. Add "override: true" to its front matter`);
  });
});
