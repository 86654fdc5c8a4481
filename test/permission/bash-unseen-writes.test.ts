import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { PermissionPolicy, type PermissionRule } from '../../src/permission/index.js';
import { own } from '../support/collect-events.js';
import { runHostileCalls, tempWorkspace } from './tool-calls-over-http.js';

// An archive unpacked or a patch applied writes the paths it carries, not the ones the line
// shows: `tar -xf a.tar` under `allow tar *` wrote `.git/hooks/pre-commit`, and the next
// allowed `git commit` ran it, dodging a deny on `rm *`. Such a line is now one the checker
// cannot read, and under a write or edit deny rule it may write that rule's paths.

const ALLOWED = ['tar *', 'gtar *', 'bsdtar *', 'unzip *', 'patch *', 'git *', 'cpio *', '7z *', 'unrar *', 'ar *', 'jar *', 'pax *', 'busybox *',
  'sudo *', 'env *', 'timeout *', 'xargs *', 'curl *', 'cat *', 'ls *'];
const ALLOW: PermissionRule[] = ALLOWED.map((pattern) => ({ tool: 'bash', action: 'allow', pattern }));
const DENY_RM: PermissionRule = { tool: 'bash', action: 'deny', pattern: 'rm *' };

/** [line, what the reason names]. */
const UNSEEN: readonly (readonly [string, string])[] = [
  ['tar -xf a.tar', 'tar extracting an archive'], ['tar xf a.tar', 'tar extracting an archive'], ['tar -zxvf a.tgz', 'tar extracting an archive'],
  ['tar -xzf a.tgz -C out', 'tar extracting an archive'], ['tar -C out -xf a.tar', 'tar extracting an archive'],
  ['tar --extract -f a.tar', 'tar extracting an archive'], ['tar --extr --file=a.tar', 'tar extracting an archive'],
  ['tar --get -f a.tar', 'tar extracting an archive'], ['"tar" -x -f a.tar', 'tar extracting an archive'], ["t'a'r -xf a.tar", 'tar extracting an archive'],
  ['busybox tar x -f a.tar', 'tar extracting an archive'], ['bsdtar -xf a.tar', 'bsdtar extracting an archive'], ['gtar xf a.tar', 'gtar extracting an archive'],
  ['sudo tar -xf a.tar', 'tar extracting an archive'], ['env tar -xf a.tar', 'tar extracting an archive'], ['ls *.tar | xargs -n1 tar -xf', 'tar extracting an archive'],
  ['curl -s https://example.com/a.tgz | tar -xz', 'tar extracting an archive'],
  ['unzip a.zip', 'unzip extracting an archive'], ['unzip -o a.zip -d out', 'unzip extracting an archive'], ['unzip -qq a.zip', 'unzip extracting an archive'],
  ['timeout 60 unzip a.zip', 'unzip extracting an archive'],
  ['patch -p1 < x.patch', 'patch applying a patch'], ['patch -p1 -i x.patch', 'patch applying a patch'],
  ['git apply x.patch', '"git apply"'], ['git apply --stat --apply x.patch', '"git apply"'], ['git apply --sta x.patch', '"git apply"'],
  ['git -C sub apply x.patch', '"git apply"'], ['git am x.mbox', '"git am"'],
  ['cpio -i < a.cpio', 'cpio extracting'], ['cpio -idmv < a.cpio', 'cpio extracting'], ['cpio --extract < a.cpio', 'cpio extracting'],
  ['cpio -pdm out < list', 'cpio extracting or copying'], ['7z x a.7z', '7z extracting'], ['unrar x a.rar', 'unrar extracting'], ['ar x lib.a', 'ar extracting'],
  ['jar xf a.jar', 'jar extracting'], ['pax -r < a.pax', 'pax extracting'],
];

/** Listing, testing and printing modes, which write nothing and stay readable. */
const READABLE = [
  'tar -tf a.tar', 'tar tvf a.tar', 'tar --list -f a.tar', 'tar -xOf a.tar f', 'tar -czf out.tgz lib', 'unzip -l a.zip', 'unzip -t a.zip',
  'unzip -p a.zip f', 'unzip -Z a.zip', 'git apply --stat x.patch', 'git apply --check x.patch', 'patch --dry-run -p1 < x.patch',
  'cpio -it < a.cpio', '7z l a.7z', 'ar t lib.a', 'jar tf a.jar', 'git commit -m "apply the patch"', 'cat x.patch',
];

describe('a bash line that unpacks an archive or applies a patch', () => {
  const deny = new PermissionPolicy({ rules: [...ALLOW, DENY_RM] });

  it.each(UNSEEN)('%j is unreadable: denied under a bash deny rule, saying why', (line, what) => {
    const decision = deny.evaluate('bash', line);
    expect(decision.action).toBe('deny');
    expect(decision.reason).toMatch(/^denied: the command has /);
    expect(decision.reason).toContain(what);
    expect(decision.reason).toContain('so the bash deny rules cannot check it');
  });

  it.each(READABLE)('%j stays allowed', (line) => {
    expect(deny.evaluate('bash', line).action).toBe('allow');
  });

  it('asks under a bash ask rule, and under allow patterns alone', () => {
    expect(new PermissionPolicy({ rules: [...ALLOW, { ...DENY_RM, action: 'ask' }] }).evaluate('bash', 'tar -xf a.tar').action).toBe('ask');
    expect(new PermissionPolicy({ rules: ALLOW }).evaluate('bash', 'unzip a.zip').action).toBe('ask');
    expect(new PermissionPolicy({ rules: [{ tool: 'bash', action: 'allow' }] }).evaluate('bash', 'unzip a.zip').action).toBe('allow');
  });

  it('fails toward the user\'s write and edit deny and ask rules, whatever folder it unpacks into', () => {
    const denyWrite = new PermissionPolicy({ rules: [{ tool: 'bash', action: 'allow' }, { tool: 'write', action: 'deny', pattern: '.git/**' }] });
    expect(denyWrite.evaluate('bash', 'tar -xf a.tar -C out')).toMatchObject({
      action: 'deny',
      reason: 'denied: the command has tar extracting an archive, which may write any path, and the write rule {tool: "write", action: deny, pattern: ".git/**"} denies some path',
    });
    expect(denyWrite.evaluate('bash', 'tar -tf a.tar').action).toBe('allow');
    const askEdit = new PermissionPolicy({ rules: [{ tool: 'bash', action: 'allow' }, { tool: 'edit', action: 'ask', pattern: 'src/**' }] });
    expect(askEdit.evaluate('bash', 'git apply x.patch').action).toBe('ask');
  });
});

let cleanup: (() => Promise<void>) | undefined;
afterEach(async () => {
  await cleanup?.();
  cleanup = undefined;
});

describe('in a real run', () => {
  it('an archive carrying a git hook is refused before it is unpacked', async () => {
    const ws = await tempWorkspace('rxharness-unseen-writes-');
    cleanup = ws.cleanup;
    const staging = join(ws.dir, 'staging');
    await mkdir(join(staging, '.git', 'hooks'), { recursive: true });
    await writeFile(join(staging, '.git', 'hooks', 'pre-commit'), 'rm -rf victim\n');
    execFileSync('tar', ['-cf', join(ws.dir, 'a.tar'), '-C', staging, '.git']);
    const events = await runHostileCalls(ws.dir, [{ name: 'bash', arguments: { command: 'tar -xf a.tar' } }], { permissionRules: [...ALLOW, DENY_RM] });
    expect(own(events, 'ToolCallEnd').map((e) => e.error)).toEqual([
      'Permission denied: denied: the command has tar extracting an archive, which may write any path, so the bash deny rules cannot check it',
    ]);
    expect(existsSync(join(ws.dir, '.git', 'hooks', 'pre-commit'))).toBe(false);
  });
});
