import { mkdir, rm, symlink, unlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { approvedThenSwappedPerTest } from './support/approved-then-swapped.js';

// A path approved by a human leads elsewhere by the time the tool runs: while the approval
// was pending, the file (or a folder on its way) became a link to a place that asks. `read`
// and `grep` refuse, as `write` and `edit` do, instead of showing what nobody approved.

const approvedThenSwapped = approvedThenSwappedPerTest();

async function noteAndSecret(dir: string): Promise<void> {
  await writeFile(join(dir, '.env'), 'API_KEY=sk-secret\n');
  await mkdir(join(dir, 'notes'));
  await writeFile(join(dir, 'notes/a.txt'), 'plain note KEY\n');
}

async function noteToSecret(dir: string): Promise<void> {
  await unlink(join(dir, 'notes/a.txt'));
  await symlink('../.env', join(dir, 'notes/a.txt'));
}

describe('read and grep refuse a path swapped for a link while approval was pending', () => {
  it('read: the approved file became a link to .env', async () => {
    const { end, asked } = await approvedThenSwapped({ name: 'read', arguments: { path: 'notes/a.txt' } }, [{ tool: 'read', action: 'ask', pattern: 'notes/**' }], noteToSecret, noteAndSecret);
    expect(asked).toEqual(['{"path":"notes/a.txt"}']);
    expect(end.text).not.toContain('sk-secret');
    expect(end.error).toBe('notes/a.txt now leads to .env through a symbolic link, where read needs approval; nothing was read. Give .env itself as the path to have it judged.');
  });

  it('read: the approved folder became a link to another folder that asks', async () => {
    const { end } = await approvedThenSwapped(
      { name: 'read', arguments: { path: 'conf/a.txt' } },
      [
        { tool: 'read', action: 'ask', pattern: 'conf/**' },
        { tool: 'read', action: 'ask', pattern: 'private/**' },
      ],
      async (dir) => {
        await rm(join(dir, 'conf'), { recursive: true });
        await symlink('private', join(dir, 'conf'));
      },
      async (dir) => {
        await mkdir(join(dir, 'private'));
        await writeFile(join(dir, 'private/a.txt'), 'PRIVATE\n');
        await mkdir(join(dir, 'conf'));
        await writeFile(join(dir, 'conf/a.txt'), 'public\n');
      },
    );
    expect(end.text).not.toContain('PRIVATE');
    expect(end.error).toMatch(/^conf\/a\.txt now leads to private\/a\.txt through a symbolic link, where read needs approval; nothing was read/);
  });

  it('grep on one file: the approved file became a link to .env', async () => {
    const { end } = await approvedThenSwapped({ name: 'grep', arguments: { pattern: 'KEY', path: 'notes/a.txt' } }, [{ tool: 'grep', action: 'ask', pattern: 'notes/**' }], noteToSecret, noteAndSecret);
    expect(end.text).not.toContain('sk-secret');
    expect(end.error).toBe('notes/a.txt now leads to .env through a symbolic link, where grep needs approval; nothing was searched. Give .env itself as the path to have it judged.');
  });
});
