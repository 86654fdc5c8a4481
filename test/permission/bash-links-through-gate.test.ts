/**
 * Through a real agent run: the gate gives the policy the agent's workspace, so a bash write
 * through a link already in the workspace is judged where it lands, and nothing is written.
 * (Needs the one-line change in src/agent/tool-gate.ts that passes `{ workspace }` to `evaluate`.)
 */
import { existsSync } from 'node:fs';
import { symlink } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ReActAgent } from '../../src/agent/react-agent.js';
import type { AgentEvent } from '../../src/events/agent-event.js';
import { ScriptedModel } from '../../src/model/scripted-model.js';
import { PermissionPolicy } from '../../src/permission/permission-policy.js';
import { createBuiltinTools } from '../../src/tools/builtin/index.js';
import { collect } from '../support/collect-events.js';
import { toolContextPerTest } from '../support/tool-context-per-test.js';

const fresh = toolContextPerTest();

describe('a bash write through a planted link, in a real run', () => {
  it('is denied by the write rule of the real path, and src/ stays untouched', async () => {
    await fresh.ws.file('src/keep.ts', '');
    await symlink('src', join(fresh.ws.dir, 'frontend'));
    const permissions = new PermissionPolicy({ rules: [{ tool: 'bash', action: 'allow' }, { tool: 'write', action: 'deny', pattern: 'src/**' }] });
    const model = new ScriptedModel([{ toolCalls: [{ id: 'b', name: 'bash', args: { command: 'echo x > frontend/a.ts' } }] }, { text: 'done' }]);
    const agent = new ReActAgent({ model, workspace: fresh.ws.dir, tools: createBuiltinTools(), permissions });
    const events: AgentEvent[] = await collect(agent.stream('go'));
    const end = events.find((e) => e.type === 'ToolCallEnd');
    expect(end?.type === 'ToolCallEnd' ? end.error : undefined).toContain('leads to "src/a.ts" through a symbolic link');
    expect(existsSync(join(fresh.ws.dir, 'src/a.ts'))).toBe(false);
  });
});
