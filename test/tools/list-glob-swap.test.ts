import { mkdir, rm, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { PermissionRule } from '../../src/permission/index.js';
import { approvedThenSwappedPerTest, type SwappedCall } from './support/approved-then-swapped.js';

// A folder approved for `list` or `glob` is swapped for a link while the approval waits:
// the tool resolves it again when it runs and, as `read` and `grep` do, refuses a place
// nobody judged instead of showing its entries.

const approvedThenSwapped = approvedThenSwappedPerTest();

async function notesAndPrivate(dir: string): Promise<void> {
  await mkdir(join(dir, 'notes'));
  await writeFile(join(dir, 'notes/a.txt'), 'note\n');
  await mkdir(join(dir, 'private'));
  await writeFile(join(dir, 'private/plan-secret.txt'), 'PRIVATE\n');
}

/** `notes` becomes a link to `to` (relative to `notes`' folder). */
function notesTo(to: string): (dir: string) => Promise<void> {
  return async (dir) => {
    await rm(join(dir, 'notes'), { recursive: true });
    await symlink(to, join(dir, 'notes'));
  };
}

const CALLS: Record<'list' | 'glob', SwappedCall> = {
  list: { name: 'list', arguments: { path: 'notes' } },
  glob: { name: 'glob', arguments: { pattern: '*', path: 'notes' } },
};

/** `notes` asks for `tool`; `private` (the folder itself, not its files) gets `action`. */
function rules(tool: string, action: PermissionRule['action']): PermissionRule[] {
  return [
    { tool, action: 'ask', pattern: 'notes' },
    { tool, action, pattern: 'private' },
  ];
}

describe.each(['list', 'glob'] as const)('%s refuses a folder swapped for a link while approval was pending', (tool) => {
  const undone = tool === 'list' ? 'listed' : 'searched';

  it('to a folder that asks: refused, its entries not shown', async () => {
    const { end, asked } = await approvedThenSwapped(CALLS[tool], rules(tool, 'ask'), notesTo('private'), notesAndPrivate);
    expect(asked).toEqual([JSON.stringify(CALLS[tool].arguments)]);
    expect(end.text).not.toContain('plan-secret');
    expect(end.error).toBe(
      `notes now leads to private through a symbolic link, where ${tool} needs approval; nothing was ${undone}. Give private itself as the path to have it judged.`,
    );
  });

  it('to a denied folder: refused, its entries not shown', async () => {
    const { end } = await approvedThenSwapped(CALLS[tool], rules(tool, 'deny'), notesTo('private'), notesAndPrivate);
    expect(end.text).not.toContain('plan-secret');
    expect(end.error).toMatch(/^Permission denied: .*private/);
  });

  it('to a folder outside the workspace: refused as outside, nothing shown', async () => {
    // `..` from the workspace is its parent, the temporary folder: outside, and full of entries.
    const { end } = await approvedThenSwapped(CALLS[tool], rules(tool, 'ask'), notesTo('..'), notesAndPrivate);
    expect(end.error).toMatch(/^Permission denied: ".*" is outside the workspace /);
    expect(end.text.split('\n')).toHaveLength(1);
  });

  it('to a folder the rules allow outright: listed as usual', async () => {
    const { end } = await approvedThenSwapped(CALLS[tool], [{ tool, action: 'ask', pattern: 'notes' }], notesTo('private'), notesAndPrivate);
    expect(end.error).toBeUndefined();
    expect(end.text).toContain('plan-secret.txt');
  });
});
