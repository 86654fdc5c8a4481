/**
 * A symbolic link already in the workspace (`frontend -> src`, planted by a cloned repository
 * or an earlier command) must not dodge the write rules: `echo x > frontend/a.ts` writes
 * `src/a.ts`. Given the workspace, the policy judges each write where its way leads now as
 * well as where the line shows it, and the stricter decision holds.
 */
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { PermissionRule } from '../../src/permission/permission-rule.js';
import { PermissionPolicy } from '../../src/permission/permission-policy.js';

let root: string;
let ws: string;
let outside: string;

beforeEach(() => {
  root = realpathSync(mkdtempSync(join(tmpdir(), 'bash-links-')));
  ws = join(root, 'ws');
  outside = join(root, 'outside');
  for (const dir of [join(ws, 'src/sub'), join(ws, 'docs'), join(ws, 'secrets'), join(outside, 'lib')]) mkdirSync(dir, { recursive: true });
  writeFileSync(join(ws, 'src/a.ts'), '');
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

const link = (target: string, at: string): void => symlinkSync(target, join(ws, at));
const DENY_SRC: PermissionRule[] = [{ tool: 'bash', action: 'allow' }, { tool: 'write', action: 'deny', pattern: 'src/**' }];
const decide = (line: string, rules: readonly PermissionRule[] = DENY_SRC) => new PermissionPolicy({ rules }).evaluate('bash', line, { workspace: ws });

describe('bash writes through a symbolic link already in the workspace', () => {
  it('a link to a folder: the write is judged where it lands, and the reason says so', () => {
    link('src', 'frontend');
    const decided = decide('echo x > frontend/a.ts');
    expect(decided.action).toBe('deny');
    expect(decided.reason).toContain('"frontend/a.ts", which leads to "src/a.ts" through a symbolic link');
    // Without the workspace the path is judged as shown: the link is what makes it a write of src/.
    expect(new PermissionPolicy({ rules: DENY_SRC }).evaluate('bash', 'echo x > frontend/a.ts').action).toBe('allow');
  });

  it('a link to a file, and a dangling link (a redirection creates its target)', () => {
    link('src/a.ts', 'notes.md');
    link('src/new.ts', 'new.md');
    expect(decide('echo x >> notes.md').action).toBe('deny');
    expect(decide('echo x > new.md').action).toBe('deny');
    expect(decide('echo x | tee -a notes.md').action).toBe('deny');
  });

  it('a chain of links, a link in the middle of the way, `..` after a link, a glob and a folder copied into a link', () => {
    link('b', 'a');
    link('c', 'b');
    link('src', 'c');
    link('src/sub', 'deep');
    expect(decide('echo x > a/x.ts').action).toBe('deny');
    // `deep/..` is `src` where the kernel reads it, not the workspace as the text reads it.
    expect(decide('echo x > deep/../b.ts').action).toBe('deny');
    expect(decide('echo x > deep/../../b.ts').action).toBe('allow');
    expect(decide('tee a/*.ts < y').action).toBe('deny');
    expect(decide('cp -r y a/').action).toBe('deny');
    expect(decide(`echo x > ${ws}/a/x.ts`).action).toBe('deny');
  });

  it('after a cd into a link, relative writes land under where it leads', () => {
    link('src', 'frontend');
    expect(decide('cd frontend && echo x > a.ts').action).toBe('deny');
    expect(decide('cd frontend/sub && echo x > ../b.ts').action).toBe('deny');
    expect(decide('cd docs && echo x > a.md').action).toBe('allow');
  });

  it('a link that leads outside the workspace is judged as that absolute path on the line is', () => {
    link(join(outside, 'lib'), 'vendor');
    const rules: PermissionRule[] = [{ tool: 'bash', action: 'allow' }, { tool: 'write', action: 'deny', pattern: `${outside}/**` }];
    const decided = decide('echo x > vendor/a.ts', rules);
    expect(decided.action).toBe('deny');
    expect(decided.reason).toContain(`leads to "${outside}/lib/a.ts"`);
    // Its tails too, as `echo x > /…/lib/a.ts` is judged: a workspace may be somewhere above.
    const tails: PermissionRule[] = [{ tool: 'bash', action: 'allow' }, { tool: 'write', action: 'ask', pattern: 'lib/**' }];
    expect(decide(`echo x > ${outside}/lib/a.ts`, tails).action).toBe('ask');
    expect(decide('echo x > vendor/a.ts', tails).action).toBe('ask');
  });

  it('a link leading up out of the workspace and back into it', () => {
    link('../ws/src', 'around');
    link('..', 'up');
    expect(decide('echo x > around/a.ts').action).toBe('deny');
    expect(decide('echo x > up/ws/src/a.ts').action).toBe('deny');
    // A folder holding the workspace holds every path of it: filling it writes anywhere, `y` beside the workspace does not.
    expect(decide('rsync -a y/ up/').action).toBe('deny');
    expect(decide('cp -r y up/').action).toBe('allow');
  });

  it('a loop of links is judged as any path: where it leads cannot be known', () => {
    link('l2', 'l1');
    link('l1', 'l2');
    const decided = decide('echo x > l1/a.txt');
    expect(decided.action).toBe('deny');
    expect(decided.reason).toContain('cannot be followed');
    expect(decide('echo x > out.txt').action).toBe('allow');
  });

  it('a dangling link in the middle of the way leads where its target would be made', () => {
    link('src/gen/out', 'build');
    expect(decide('mkdir -p build && echo x > build/a.js').action).toBe('deny');
  });

  it('a link under a folder the read rules deny is followed all the same (only its name is read, never a file)', () => {
    link('../src', 'secrets/out');
    const rules: PermissionRule[] = [...DENY_SRC, { tool: 'read', action: 'deny', pattern: 'secrets/**' }];
    expect(decide('echo x > secrets/out/a.ts', rules).action).toBe('deny');
    // The read rules judge the read tools, not a bash line's reads: a link changes nothing there.
    link('secrets', 'pub');
    expect(decide('cat pub/key', rules)).toEqual(decide('cat secrets/key', rules));
  });

  it('is decided at decision time: a link made or removed between two calls is seen', () => {
    const line = 'echo x > frontend/a.ts';
    mkdirSync(join(ws, 'frontend'));
    expect(decide(line).action).toBe('allow');
    rmSync(join(ws, 'frontend'), { recursive: true });
    link('src', 'frontend');
    expect(decide(line).action).toBe('deny');
    unlinkSync(join(ws, 'frontend'));
    expect(decide(line).action).toBe('allow');
  });

  it('a link the line itself makes counts as it did: `ln` writes its source, `mv` of a link writes where it leads', () => {
    expect(decide('ln -s src lnk && echo x > lnk/a.ts').action).toBe('deny');
    link('src', 'frontend');
    // Moving or removing the link is judged as a write where it leads: the safe side (`rm -r frontend/` empties src).
    expect(decide('mv frontend f2 && echo x > f2/a.ts').action).toBe('deny');
  });

  it('a parent agent denying writes holds for its child, through the link', () => {
    link('src', 'frontend');
    const child = new PermissionPolicy({ rules: DENY_SRC }).child([{ tool: 'bash', action: 'allow' }], { narrowOnly: true });
    expect(child.evaluate('bash', 'echo x > frontend/a.ts', { workspace: ws }).action).toBe('deny');
  });

  it('ask rules ask through a link; an allow of higher priority at the real path is kept', () => {
    link('src', 'frontend');
    const rules: PermissionRule[] = [{ tool: 'bash', action: 'allow' }, { tool: 'write', action: 'ask', pattern: 'src/**' }, { tool: 'write', action: 'allow', pattern: 'src/gen/**', priority: 5 }];
    expect(decide('echo x > frontend/a.ts', rules).action).toBe('ask');
    expect(decide('echo x > frontend/gen/a.ts', rules).action).toBe('allow');
  });
});
