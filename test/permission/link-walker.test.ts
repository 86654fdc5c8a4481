/**
 * The walker that follows a bash write's way through symbolic links when a line is decided:
 * its work stays bounded whatever links an attacker plants (chains of 10,000, loops, targets
 * made of links), it never throws, and a way it cannot follow is judged as any path.
 */
import { chmodSync, mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { pathToFileURL } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LinkWalker, MAX_LINKS_PER_PATH, MAX_STEPS } from '../../src/permission/link-walker.js';
import type { PermissionRule } from '../../src/permission/permission-rule.js';
import { decideWrites } from '../../src/permission/write-rules.js';

let ws: string;
beforeEach(() => {
  ws = realpathSync(mkdtempSync(join(tmpdir(), 'link-walker-')));
  mkdirSync(join(ws, 'src'));
});
afterEach(() => {
  chmodSync(ws, 0o700);
  rmSync(ws, { recursive: true, force: true });
});

const DENY_SRC: PermissionRule[] = [{ tool: 'write', action: 'deny', pattern: 'src/**' }];

describe('LinkWalker', () => {
  it('follows links as the kernel does, and says when it followed one', () => {
    symlinkSync('src', join(ws, 'frontend'));
    const walker = new LinkWalker(ws);
    expect(walker.resolve('frontend/new/a.ts')).toEqual({ kind: 'real', path: join(ws, 'src/new/a.ts'), linked: true });
    expect(walker.resolve('src/a.ts')).toEqual({ kind: 'real', path: join(ws, 'src/a.ts'), linked: false });
    expect(walker.resolve('../x')).toEqual({ kind: 'real', path: join(ws, '../x'), linked: false });
  });

  it('a chain of 10,000 links costs one path its 40 links, and is judged as any path', () => {
    const count = 10_000;
    for (let i = 0; i < count; i++) symlinkSync(i === count - 1 ? 'src' : `l${i + 1}`, join(ws, `l${i}`));
    const walker = new LinkWalker(ws);
    walker.root();
    const before = walker.steps; // the workspace's own names
    const decided = decideWrites(DENY_SRC, 'echo x > l0/a.ts', walker);
    expect(decided?.action).toBe('deny');
    expect(decided?.reason).toContain(`more than ${MAX_LINKS_PER_PATH} symbolic links`);
    expect(walker.steps - before).toBeLessThanOrEqual(MAX_LINKS_PER_PATH + 1);
    // The end of the chain is followed as well as any link: 39 links from it, src is reached.
    expect(new LinkWalker(ws).resolve(`l${count - 39}/a.ts`)).toMatchObject({ kind: 'real', path: join(ws, 'src/a.ts') });
  }, 120_000); // making 10,000 links takes seconds on a loaded machine

  it('64 writes each into a long chain stay within the bounds of one decision', () => {
    for (let i = 0; i < 200; i++) symlinkSync(i === 199 ? 'src' : `l${i + 1}`, join(ws, `l${i}`));
    const walker = new LinkWalker(ws);
    const line = Array.from({ length: 64 }, (_, i) => `echo x > l${i}/a.ts`).join('; ');
    expect(decideWrites(DENY_SRC, line, walker)?.action).toBe('deny');
    expect(walker.steps).toBeLessThanOrEqual(MAX_STEPS);
    // Each write is judged once per decision, whatever the rules: the same walk is not redone.
    const again = walker.steps;
    walker.resolve('l0/a.ts');
    expect(walker.steps).toBe(again);
  });

  it('a link whose target is made of thousands of links to "." stops at the bound', () => {
    symlinkSync('.', join(ws, 'x'));
    symlinkSync(Array.from({ length: 2000 }, () => 'x').join('/'), join(ws, 'l'));
    expect(new LinkWalker(ws).resolve('l/a')).toMatchObject({ kind: 'unknown' });
  });

  it('a loop, a name longer than any file system takes, a missing workspace: answers, never throws', () => {
    symlinkSync('b', join(ws, 'a'));
    symlinkSync('a', join(ws, 'b'));
    const walker = new LinkWalker(ws);
    expect(walker.resolve('a')).toMatchObject({ kind: 'unknown' });
    expect(walker.resolve(`${'n'.repeat(300)}/a`)).toMatchObject({ kind: 'real', linked: false });
    expect(new LinkWalker(join(ws, 'gone')).resolve('a')).toEqual({ kind: 'real', path: join(ws, 'gone/a'), linked: false });
  });

  it('a folder it may not look into (EACCES) is judged as leading anywhere: fail closed', () => {
    mkdirSync(join(ws, 'locked'));
    chmodSync(join(ws, 'locked'), 0o000);
    try {
      const decided = decideAsUnprivileged(ws, 'sudo tee locked/l < y');
      expect(decided?.action).toBe('deny');
      expect(decided?.reason).toContain('EACCES');
    } finally {
      chmodSync(join(ws, 'locked'), 0o700);
    }
  });
});

/**
 * `decideWrites(DENY_SRC, line, new LinkWalker(workspace))` as a user who cannot look into a
 * folder of mode 000: this process when it is not root; else a child process run as `nobody`
 * (root reads every folder, and CI runs as root), so the EACCES case is checked everywhere.
 */
function decideAsUnprivileged(workspace: string, line: string): { action: string; reason: string } | undefined {
  if (process.getuid?.() !== 0) return decideWrites(DENY_SRC, line, new LinkWalker(workspace));
  chmodSync(workspace, 0o755);
  const module = (path: string) => JSON.stringify(pathToFileURL(join(process.cwd(), path)).href);
  const script =
    `const { LinkWalker } = await import(${module('src/permission/link-walker.ts')});` +
    `const { decideWrites } = await import(${module('src/permission/write-rules.ts')});` +
    `const [rules, line, ws] = JSON.parse(process.argv[1]);` +
    `console.log(JSON.stringify(decideWrites(rules, line, new LinkWalker(ws)) ?? null));`;
  const child = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script, JSON.stringify([DENY_SRC, line, workspace])], {
    uid: 65534,
    gid: 65534,
    encoding: 'utf8',
    timeout: 60_000,
  });
  if (child.status !== 0) throw new Error(`the unprivileged check failed: ${child.stderr || child.error?.message}`);
  return JSON.parse(child.stdout) ?? undefined;
}
