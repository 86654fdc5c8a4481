import { existsSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { PermissionPolicy, type PermissionRule } from '../../src/permission/index.js';
import { own } from '../support/collect-events.js';
import { runHostileCalls, tempWorkspace } from './tool-calls-over-http.js';

// Ordinary programs run commands given in their options (the GTFOBins class): under
// `allow tar *` and `deny rm *`, `tar --checkpoint-action=exec='rm -rf x'` ran rm unasked,
// and so did `zip -TT`, `rsync -e`, `sort --compress-program`, `ssh -o ProxyCommand`,
// `scp -S`, `man -P`, `split --filter` and `npm exec -- rm`. Such a line is now unreadable
// (denied under a deny rule, naming the option), and `npm exec` / `npx` are judged as wrappers.

const PROGRAMS = ['tar', 'zip', 'unzip', 'rsync', 'sort', 'ssh', 'scp', 'sftp', 'man', 'split', 'npm', 'pnpm', 'yarn', 'npx'];
const RULES: PermissionRule[] = [
  ...PROGRAMS.map((program): PermissionRule => ({ tool: 'bash', action: 'allow', pattern: `${program} *` })),
  { tool: 'bash', action: 'deny', pattern: 'rm *' },
];

/** [the line, what the reason must say]. */
const ATTACKS: readonly (readonly [string, string])[] = [
  ["tar -cf /dev/null x --checkpoint=1 --checkpoint-action=exec='rm -rf v'", '("tar --checkpoint-action=exec=rm -rf v")'],
  ["tar -cf a.tar --checkpoint-action exec='rm -rf v' x", '("tar --checkpoint-action exec=rm -rf v")'],
  ["tar -cf a.tar --checkpoint-a=exec='rm v' x", '("tar --checkpoint-a=exec=rm v")'],
  ["tar -cf x.tar -I 'rm -rf v' x", '("tar -I rm -rf v")'],
  ["tar -cIf 'rm v' x.tar x", '("tar -cIf")'],
  ["tar cIf 'rm v' a.tar x", '("tar cIf")'],
  ["tar --use-compress-program='rm v' -cf x.tar x", '("tar --use-compress-program=rm v")'],
  ["tar --use-c 'rm v' -cf x.tar x", '("tar --use-c rm v")'],
  ["tar -cf a.tar -F 'rm v' -M x", '("tar -F rm v")'],
  ["tar -cf a.tar --info-script='rm v' -M x", 'an option of tar that runs a command'],
  ["tar -cf a.tar --new-volume-script='rm v' -M x", 'an option of tar that runs a command'],
  ["tar -cf a.tar --to-c='rm v' x", '("tar --to-c=rm v")'],
  ['tar -cf host:/a.tar --rsh-command=/tmp/evil x', '("tar --rsh-command=/tmp/evil")'],
  ['tar -cf host:/a.tar --rmt-command=/tmp/evil x', '("tar --rmt-command=/tmp/evil")'],
  ["/usr/bin/tar -czf a.tgz --checkpoint-action=exec='rm v' d", 'an option of tar that runs a command'],
  ["zip x.zip a -T -TT 'rm -rf v'", '("zip -TT rm -rf v")'],
  ["zip -rTT='rm v' x.zip a", '("zip -rTT=rm v")'],
  ["zip x.zip a -T --unzip-command 'rm -rf v'", '("zip --unzip-command rm -rf v")'],
  ["rsync -e 'rm -rf v' a host:b", '("rsync -e rm -rf v")'],
  ["rsync -ave 'rm v' a host:b", '("rsync -ave rm v")'],
  ["rsync --rsh='rm -rf v' a host:b", '("rsync --rsh=rm -rf v")'],
  ["rsync -e 'ssh -o ProxyCommand=rm' a host:b", 'an option of rsync that runs a command'],
  ["sort --compress-program='rm' -S 1 big", '("sort --compress-program=rm")'],
  ['sort --compress-p rm -S 1 big', '("sort --compress-p rm")'],
  ["ssh -o ProxyCommand='rm -rf v' x", '("ssh -o ProxyCommand=rm -rf v")'],
  ["ssh -oProxyCommand='rm v' x", '("ssh -oProxyCommand=rm v")'],
  ["ssh -vo 'proxycommand rm v' x", '("ssh -vo proxycommand rm v")'],
  ["ssh -o LocalCommand='rm v' -o PermitLocalCommand=yes x", '("ssh -o LocalCommand=rm v")'],
  ["ssh -o KnownHostsCommand='rm v' x", 'an option of ssh that runs a command'],
  ['ssh -F ./evil.conf x', '("ssh -F ./evil.conf")'],
  ['ssh x -o ProxyCommand=rm', 'an option of ssh that runs a command'],
  ["scp -S 'rm' a b:", '("scp -S rm")'],
  ["scp -o ProxyCommand='rm v' a b:", 'an option of scp that runs a command'],
  ['scp -rS rm a b:', '("scp -rS rm")'],
  ['sftp -S rm host', '("sftp -S rm")'],
  ['sftp -D rm host', '("sftp -D rm")'],
  ['sftp -b cmds host', '("sftp -b cmds")'],
  ["man -P 'rm -rf v' ls", '("man -P rm -rf v")'],
  ["man --pager='rm v' ls", '("man --pager=rm v")'],
  ["man -H'rm v' ls", '("man -Hrm v")'],
  ["man --html='rm v' ls", 'an option of man that runs a command'],
  ['man -C ./evil.conf ls', '("man -C ./evil.conf")'],
  ["split -l 1 --filter='rm -rf v' a", '("split --filter=rm -rf v")'],
  ["split --filter 'rm v' a", '("split --filter rm v")'],
  ["npm exec --call='rm v'", '("npm --call=rm v")'],
  ["npm --script-shell=./evil run build", '("npm --script-shell=./evil")'],
  // Words only known when the program runs: a variable may hold an option, a leading glob may
  // match a file named like one (`touch -- '--checkpoint-action=exec=sh x'`, then `tar -cf a *`).
  ["O='--to-command=rm v'; tar -cf a d $O", '("$O"), which may be an option of tar that runs a command'],
  ["IFS=; O='--checkpoint-action=exec=rm v'; tar -cf a d $O", '("$O")'],
  ['X="a.tar --to-command=rm"; tar -cf $X d', '("$X")'],
  ['tar -czf a.tgz *', '("*"), which may be an option of tar that runs a command'],
  ['rsync -a * host:b', 'an option of rsync'],
  ['ssh "$H" ls', '("$H"), which may be an option of ssh'],
  ['npm install $PKG', '("$PKG"), which may be an option of npm'],
  ["npm exec -c 'ls; rm v'", '("npm -c ls; rm v")'],
  ['npx -c ./x', '("npx -c ./x")'],
];

/** Lines whose inner command a deny rule judges: `npm exec`, `npx`, `pnpm dlx`... run the words after them. */
const WRAPPED = [
  'npm exec -- rm -rf v',
  'npm x -- rm v',
  'npm exec rm v',
  'npm --prefix d exec -- rm v',
  'npx rm -rf v',
  'npx --yes rm v',
  'pnpm exec rm v',
  'pnpm dlx rm v',
  'yarn exec rm v',
  'yarn dlx rm v',
];

/** Ordinary uses, which must stay allowed under the same rules. */
const ORDINARY = [
  'tar -czf a.tgz dir',
  'tar -tf a.tar',
  'tar cf a.tar dir',
  'tar -cf a.tar --checkpoint=100 dir',
  'tar -cf a.tar --checkpoint=100 --checkpoint-action=dot dir',
  'tar -I zstd -cf a.tar.zst dir',
  "tar --use-compress-program='zstd -19' -cf a.tar.zst dir",
  'tar -cfI a.tar', // -f takes "I": the archive's name, not -I
  'tar -cf a.tar --exclude=node_modules .',
  'zip -r a.zip dir',
  'zip -T a.zip f',
  'rsync -av a b',
  'rsync -av --delete-after a/ host:b/',
  'rsync -av -e ssh a host:b',
  "rsync -az -e 'ssh -p 2222' a host:b",
  'sort -o out in',
  'sort -S 1G --compress-program=gzip big',
  'ssh host ls',
  'ssh -p 2222 -i key host uptime',
  'ssh -o StrictHostKeyChecking=no host ls',
  'ssh -F /dev/null host ls',
  'ssh -S /tmp/ctl host ls',
  'scp a host:b',
  'scp -r -P 2222 dir host:b',
  'sftp host:file',
  'man ls',
  'man -P cat ls',
  'man 3 printf',
  'split -l 10 a',
  'split -b 1M --numeric-suffixes a part.',
  'npm install',
  'npm test -- -c',
  'npm run build',
  'npm exec tsc',
  'npx tsc --noEmit',
  'npx vitest run test/x',
  'npx prettier --write src/a.ts',
  'npx eslint -c .eslintrc.js src',
  'npm exec -- eslint -c cfg src',
  'pnpm dlx create-vite app',
  'unzip -l a.zip',
  'unzip -tq a.zip',
  'unzip -Z a.zip',
  'tar -czf a.tgz src/*',
  'tar -cf a.tar -- $X', // after `--` a word is a name
  'npx vitest run $FILE', // the options of the command npx runs are its own
];

/** unzip's reading options count only before the archive, and a value or a negation is none. */
const UNZIP_EXTRACTS = ['unzip evil.zip -x -l', 'unzip evil.zip -l', 'unzip -d -l evil.zip', 'unzip -P -t evil.zip', 'unzip --l evil.zip', 'unzip -l-l evil.zip', 'unzip -q- -l evil.zip'];

let cleanup: (() => Promise<void>) | undefined;
afterEach(async () => {
  await cleanup?.();
  cleanup = undefined;
});

describe('options of ordinary programs that run a command', () => {
  const policy = new PermissionPolicy({ rules: RULES });

  it.each(ATTACKS)('%j is denied under allow * and deny rm *, naming the option', (line, why) => {
    const decision = policy.evaluate('bash', line);
    expect(decision.action).toBe('deny');
    expect(decision.reason).toContain(why);
  });

  it.each(WRAPPED)('%j is denied by the deny rule for the command it runs', (line) => {
    expect(policy.evaluate('bash', line)).toMatchObject({ action: 'deny', reason: expect.stringContaining('pattern: "rm *"') });
  });

  it.each(ORDINARY)('%j stays allowed', (line) => {
    expect(policy.evaluate('bash', line)).toMatchObject({ action: 'allow' });
  });

  it.each(UNZIP_EXTRACTS)('%j extracts, so it is denied as a write the rules cannot see', (line) => {
    expect(policy.evaluate('bash', line)).toMatchObject({ action: 'deny', reason: expect.stringContaining('unzip extracting an archive') });
  });

  it('asks (not allows) under allow tar * alone', () => {
    const allowTar = new PermissionPolicy({ rules: [RULES[0]!] });
    expect(allowTar.evaluate('bash', "tar -cf a.tar -I 'rm v' x").action).toBe('ask');
    expect(allowTar.evaluate('bash', 'tar -czf a.tgz dir').action).toBe('allow');
  });

  it('denies a long option however it is abbreviated, joined or split, quoted or not', () => {
    const longs: readonly (readonly [string, string, number])[] = [
      ['tar -cf a.tar', 'checkpoint-action', 12],
      ['tar -cf a.tar', 'use-compress-program', 5],
      ['tar -xf a.tar', 'to-command', 4],
      ['tar -cf a.tar', 'rsh-command', 3],
      ['zip a.zip f -T', 'unzip-command', 3],
      ['rsync a host:b', 'rsh', 3],
      ['sort -S 1 big', 'compress-program', 4],
      ['split a', 'filter', 3],
      ['man ls', 'pager', 4],
    ];
    fc.assert(
      fc.property(
        fc.constantFrom(...longs),
        fc.nat(),
        fc.boolean(),
        fc.constantFrom("'exec=rm v'", '"exec=rm v"', 'exec=rm\\ v', "exec='rm v'"),
        ([head, name, shortest], cut, joined, value) => {
          const spelt = name.slice(0, shortest + (cut % (name.length - shortest + 1)));
          const line = `${head} --${spelt}${joined ? '=' : ' '}${value}`;
          expect(policy.evaluate('bash', line).action, line).toBe('deny');
        },
      ),
    );
  });

  it('is refused in a real run before tar runs anything, and the file is kept', async () => {
    // The attack is real where tar is GNU tar: it runs the checkpoint action.
    const probe = spawnSync('tar', ['--version'], { encoding: 'utf8' });
    const ws = await tempWorkspace('rxharness-option-runs-');
    cleanup = ws.cleanup;
    await writeFile(join(ws.dir, 'victim'), 'keep me');
    await mkdir(join(ws.dir, 'd'));
    await writeFile(join(ws.dir, 'd', 'a'), 'a');
    const command = "tar -cf /dev/null d --checkpoint=1 --checkpoint-action=exec='rm -f victim'";
    const events = await runHostileCalls(ws.dir, [{ name: 'bash', arguments: { command } }], { permissionRules: RULES });
    expect(own(events, 'ToolCallEnd').map((e) => e.error)).toEqual([
      'Permission denied: denied: the command has an option of tar that runs a command ' +
        '("tar --checkpoint-action=exec=rm -f victim"), so the bash deny rules cannot check it',
    ]);
    expect(existsSync(join(ws.dir, 'victim'))).toBe(true);
    if (probe.stdout?.includes('GNU tar') === true) {
      // Without the rules the same line removes the file: the test above guards a real hole.
      spawnSync('bash', ['-c', command], { cwd: ws.dir });
      expect(existsSync(join(ws.dir, 'victim'))).toBe(false);
    }
  });
});
