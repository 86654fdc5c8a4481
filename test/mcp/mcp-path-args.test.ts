import { mkdir, realpath, symlink } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { mcpPathArgument, mcpPathValues } from '../../src/mcp/mcp-path-args.js';
import { mcpPathSubject } from '../../src/mcp/mcp-path-subjects.js';
import { toolContextPerTest } from '../support/tool-context-per-test.js';

const fresh = toolContextPerTest();

describe('which arguments of an MCP tool are paths', () => {
  it('by name (any case, _ or -), declared or not, and by a path or URI format; strings and arrays of strings', () => {
    const isPath = mcpPathArgument({ properties: { out: { type: 'string', format: 'uri' }, many: { type: 'array', items: { type: 'string', format: 'path' } }, text: { type: 'string' } } });
    expect(['path', 'filePath', 'FILE-PATH', 'destination', 'paths', 'out', 'many'].every(isPath)).toBe(true);
    expect(['text', 'content', 'pattern', 'head'].some(isPath)).toBe(false);
    expect(mcpPathValues({ path: 'a', paths: ['b', 3, 'c'], source: 7, text: 'x', many: ['d'] }, isPath)).toEqual(['a', 'b', 'c', 'd']);
  });
});

describe('the subject of a path argument', () => {
  it('of a local server: resolved against its folder, symlinks followed, relative to the workspace inside it, absolute outside', async () => {
    const local = { local: true as const, cwd: fresh.ws.dir };
    await mkdir(join(fresh.ws.dir, 'secret'));
    await symlink(join(fresh.ws.dir, 'secret'), join(fresh.ws.dir, 'link'));
    expect(await mcpPathSubject(local, fresh.ws.dir, 'secret/../secret/key')).toBe('secret/key');
    expect(await mcpPathSubject(local, fresh.ws.dir, 'link/key')).toBe('secret/key');
    expect(await mcpPathSubject(local, fresh.ws.dir, `file://${fresh.ws.dir}/link/new`)).toBe('secret/new');
    expect(await mcpPathSubject({ local: true, cwd: join(fresh.ws.dir, 'secret') }, fresh.ws.dir, 'key')).toBe('secret/key');
    expect(await mcpPathSubject(local, fresh.ws.dir, '../elsewhere')).toBe(join(await realpath(join(fresh.ws.dir, '..')), 'elsewhere'));
  });

  it('of a remote server: only normalised (its files are not ours to resolve); another scheme names no path', async () => {
    expect(await mcpPathSubject({ local: false }, fresh.ws.dir, 'secret/../secret/key')).toBe('secret/key');
    expect(await mcpPathSubject({ local: false }, fresh.ws.dir, '/data/./x/../y')).toBe('/data/y');
    expect(await mcpPathSubject({ local: true, cwd: fresh.ws.dir }, fresh.ws.dir, 'https://example.com/a/../b')).toBeUndefined();
  });
});
