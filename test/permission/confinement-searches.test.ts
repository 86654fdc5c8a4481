import { rename, symlink, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { JsonObject } from '../../src/events/json.js';
import type { PermissionRule } from '../../src/permission/permission-rule.js';
import { collect, own } from '../support/collect-events.js';
import { scriptedSteps } from '../support/scripted-routes.js';
import { callTrail, makeSandbox, recordApprovals, sandboxEngine, type Sandbox } from '../support/approval-kit.js';

// Items 9 and 10 of the hardening issue, through a whole engine: path rules bind every file
// a search reads or lists, and links created while a run goes on do not lead a search out.

let sandbox: Sandbox;
afterEach(() => sandbox.cleanup());

const DENY_SECRET: PermissionRule[] = [{ tool: '*', action: 'deny', pattern: 'secret/**' }];

/** Runs the main agent making these calls, one per step; returns every ToolCallEnd and the events. */
async function calls(list: readonly [string, JsonObject][], options: Parameters<typeof sandboxEngine>[3] = {}, sessionId?: string) {
  const { engine } = await sandboxEngine(sandbox, { main: scriptedSteps(...list.map(([name, args]) => ({ toolCalls: [{ name, args }] }))) }, [], options);
  const events = await collect(engine.stream('go', sessionId === undefined ? {} : { sessionId }));
  expect(events.at(-1)).toMatchObject({ type: 'RunEnd', abnormal: false });
  return { ends: own(events, 'ToolCallEnd'), events };
}

async function withSecret(): Promise<void> {
  sandbox = await makeSandbox();
  await sandbox.file('secret/key.txt', 'needle SECRET-KEY\n');
  await sandbox.file('secret/deeper/more.txt', 'needle SECRET-MORE\n');
  await sandbox.file('notes.txt', 'needle public\n');
}

describe('path deny rules bind searches (item 10)', () => {
  it('grep over the parent folder, or with include "secret/*", never returns a denied file', async () => {
    await withSecret();
    const { ends } = await calls(
      [
        ['grep', { pattern: 'needle' }],
        ['grep', { pattern: 'needle', include: 'secret/*' }],
        ['grep', { pattern: 'needle', include: '**/*.txt' }],
        ['grep', { pattern: 'needle', include: 'secret/**' }],
      ],
      { permissionRules: DENY_SECRET },
    );
    for (const end of ends) expect(end.text).not.toContain('SECRET');
    expect(ends[0]!.text).toBe('notes.txt:1: needle public');
    expect(ends[1]!.text).toBe('No matches for /needle/ in .');
  });

  it('glob and list leave denied files out of their listings', async () => {
    await withSecret();
    const { ends } = await calls(
      [
        ['glob', { pattern: '**/*' }],
        ['glob', { pattern: 'secret/*' }],
        ['list', {}],
      ],
      { permissionRules: DENY_SECRET },
    );
    expect(ends[0]!.text).toBe('notes.txt');
    expect(ends[1]!.text).toBe('No files match secret/* in .');
    // `secret/**` matches the folder itself too, so list leaves it out.
    expect(ends[2]!.text).toBe('notes.txt');
  });

  it('a deny naming grep alone, on one file, binds grep searches', async () => {
    await withSecret();
    const { ends } = await calls([['grep', { pattern: 'needle', include: 'secret/*' }]], {
      permissionRules: [{ tool: 'grep', action: 'deny', pattern: 'secret/key.txt' }],
    });
    expect(ends[0]!.text).not.toContain('SECRET-KEY');
  });

  it('the default .env ask: grep leaves such files out with a note and asks nobody', async () => {
    sandbox = await makeSandbox();
    await sandbox.file('.env', 'needle=TOKEN\n');
    await sandbox.file('config/.env.local', 'needle=LOCAL\n');
    await sandbox.file('app.ts', 'const needle = 1;\n');
    const human = recordApprovals(() => ({ decision: 'approve' }));
    const { ends, events } = await calls([['grep', { pattern: 'needle' }]], { approve: human.approve });
    expect(ends[0]!.text).toBe(
      'app.ts:1: const needle = 1;\n\n(2 files needing approval were left out; to search one, give it as path, which asks for approval.)',
    );
    expect(human.requests).toEqual([]);
    expect(callTrail(events, 'grep')).toEqual(['main:ToolCallStart', 'main:ToolCallEnd']);
  });

  it('an ask rule of the user leaves files out the same way; an allow rule lets them in', async () => {
    await withSecret();
    const ask = await calls([['grep', { pattern: 'needle' }]], { permissionRules: [{ tool: '*', action: 'ask', pattern: 'secret/**' }] });
    expect(ask.ends[0]!.text).toContain('notes.txt:1: needle public');
    expect(ask.ends[0]!.text).toContain('(2 files needing approval were left out');
    expect(ask.ends[0]!.text).not.toContain('SECRET');

    await sandbox.file('.env', 'needle=TOKEN\n');
    const allowed = await calls([['grep', { pattern: 'needle', include: '.env' }]], {
      permissionRules: [{ tool: 'grep', action: 'allow', pattern: '**/.env' }],
    });
    expect(allowed.ends[0]!.text).toBe('.env:1: needle=TOKEN');
  });

  it('an "always" answer for grep on one .env file lets later folder searches of the conversation read it', async () => {
    sandbox = await makeSandbox();
    await sandbox.file('.env', 'needle=TOKEN\n');
    const human = recordApprovals(() => ({ decision: 'always' }));
    const { ends } = await calls(
      [
        ['grep', { pattern: 'needle', path: '.env' }],
        ['grep', { pattern: 'needle' }],
      ],
      { approve: human.approve },
      's1',
    );
    expect(ends.map((e) => e.text)).toEqual(['.env:1: needle=TOKEN', '.env:1: needle=TOKEN']);
    expect(human.requests).toHaveLength(1);
  });
});

describe('links created during the run (item 9)', () => {
  it('a link made by an earlier bash call does not lead grep or glob out', async () => {
    sandbox = await makeSandbox();
    await sandbox.file('leak.txt', 'needle OUTSIDE\n', sandbox.outside);
    const { ends } = await calls(
      [
        ['bash', { command: `ln -s ${sandbox.outside} dl && ln -s /etc etc` }],
        ['grep', { pattern: 'needle', include: 'dl/*' }],
        ['glob', { pattern: 'dl/*' }],
        ['grep', { pattern: 'root', include: 'etc/passwd' }],
      ],
      { permissionRules: [{ tool: 'bash', action: 'allow' }] },
    );
    expect(ends[0]!.error).toBeUndefined();
    expect(ends[1]!.text).toBe('No matches for /needle/ in .');
    expect(ends[2]!.text).toBe('No files match dl/* in .');
    expect(ends[3]!.text).toBe('No matches for /root/ in .');
  });

  it('a folder swapped for a link between the gate and the search is refused', async () => {
    sandbox = await makeSandbox();
    await sandbox.file('sub/inner.txt', 'needle inside\n');
    await sandbox.file('leak.txt', 'needle OUTSIDE\n', sandbox.outside);
    const sub = join(sandbox.dir, 'sub');
    const moved = join(sandbox.root, 'moved');
    // The approval handler runs after the gate resolved `sub`, before the tool: it swaps
    // the folder for a link out, then approves.
    const human = recordApprovals(async () => {
      await rename(sub, moved);
      await symlink(sandbox.outside, sub);
      return { decision: 'approve' };
    });
    const searches: [string, JsonObject][] = [
      ['grep', { pattern: 'needle', path: 'sub' }],
      ['glob', { pattern: '*', path: 'sub' }],
      ['list', { path: 'sub' }],
    ];
    for (const [tool, args] of searches) {
      const { ends } = await calls([[tool, args]], { permissionRules: [{ tool, action: 'ask' }], approve: human.approve });
      expect(ends[0]!.error, tool).toMatch(/is outside the workspace/);
      expect(ends[0]!.text, tool).not.toMatch(/leak\.txt|OUTSIDE/);
      await unlink(sub);
      await rename(moved, sub);
    }
    expect(human.requests).toHaveLength(3);
  });
});
