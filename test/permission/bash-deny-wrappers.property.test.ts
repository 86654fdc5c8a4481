import { spawnSync } from 'node:child_process';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { PermissionPolicy, type PermissionRule } from '../../src/permission/index.js';

// Issue 22 item 8, as a property: under `deny rm *` (with bash otherwise allowed), `rm f`
// spelt any way and wrapped in up to three layers of programs that run their arguments as
// commands, shells, scripts, interpreters and spellings the checker cannot read is denied:
// never allowed, and never asked (an approve-all handler would approve an ask).

const rules: PermissionRule[] = [
  { tool: 'bash', action: 'allow' },
  { tool: 'bash', action: 'deny', pattern: 'rm *' },
];

const sq = (text: string): string => `'${text.replaceAll("'", `'\\''`)}'`;

/** `rm f` spelt many ways; `simple` when the spelling is one simple command (a prefix wrapper can take it). */
const spellings: readonly { readonly line: string; readonly simple: boolean }[] = [
  ...['rm f', '/bin/rm f', 'rm -f f', '"r"m f', "$'\\x72m' f", '\\rm f', 'rm -- f', 'LANG=C rm f', 'rm${IFS}f', '{rm,f}', '$(echo rm) f', '`echo rm` f', '/bin/r? f'].map(
    (line) => ({ line, simple: true }),
  ),
  ...['x=rm; $x f', `eval "$(printf ${sq('rm f')})"`, 'echo f | xargs rm', 'find . -name f -delete', 'find . -name f -exec rm {} +'].map((line) => ({ line, simple: false })),
];

const prefixWrappers = [
  'sudo', 'sudo -u root', 'doas', 'nice -n 5', 'nohup', 'timeout 5', 'env', 'env -i A=1', 'stdbuf -o0', 'chroot /', 'unshare -r', 'setarch x86_64',
  'linux64', 'prlimit --nofile=100', 'setpriv', 'fakeroot', 'ionice -c3', 'taskset 1', 'flock lock', 'xargs', 'xargs -n1', 'parallel', 'command',
  'exec', 'time', 'setsid', 'busybox', 'strace -f', 'valgrind', 'firejail', 'systemd-run --user', 'nsenter -t 1', 'chrt 1', 'faketime now',
];
/** A wrapper of a whole command line (it takes any line, simple or not). */
const lineWrappers: readonly ((line: string) => string)[] = [
  (c) => `bash -c ${sq(c)}`,
  (c) => `sh -c ${sq(c)}`,
  (c) => `script -qc ${sq(c)} /dev/null`,
  (c) => `flock lock -c ${sq(c)}`,
  (c) => `sg root -c ${sq(c)}`,
  (c) => `su -c ${sq(c)}`,
  (c) => `watch -n1 ${sq(c)}`,
  (c) => `eval ${sq(c)}`,
  (c) => `parallel ${sq(c)} ::: x`,
  (c) => `find . -exec sh -c ${sq(c)} \\;`,
  (c) => `echo ${sq(c)} | sh`,
  (c) => `echo ${sq(c)} | bash -s`,
  (c) => `printf '%s\\n' ${sq(c)} > s.sh; bash s.sh`,
  (c) => `printf '%s\\n' ${sq(c)} > s.sh; . ./s.sh`,
  (c) => `printf '%s\\n' ${sq(c)} > s.sh; source s.sh`,
  (c) => `printf '%s\\n' ${sq(c)} > s.sh; chmod +x s.sh; ./s.sh`,
  (c) => `printf '%s\\n' ${sq(c)} > s.sh; BASH_ENV=s.sh bash -c true`,
  (c) => `python3 -c ${sq(`import os; os.system(${JSON.stringify(c)})`)}`,
  (c) => `perl -e ${sq(`system(${JSON.stringify(c)})`)}`,
  (c) => `node -e ${sq(`require("child_process").execSync(${JSON.stringify(c)})`)}`,
  (c) => `awk ${sq(`BEGIN { system(${JSON.stringify(c)}) }`)}`,
  (c) => `echo $(${c.startsWith('(') ? ` ${c}` : c})`,
  (c) => `(${c})`,
  (c) => `{ ${c}; }`,
  (c) => `if true; then ${c}; fi`,
];

const wrapped = fc
  .tuple(
    fc.constantFrom(...spellings),
    fc.array(fc.oneof(fc.constantFrom(...prefixWrappers).map((w) => ({ prefix: w })), fc.integer({ min: 0, max: lineWrappers.length - 1 }).map((i) => ({ line: i }))), {
      maxLength: 3,
    }),
  )
  .map(([spelling, layers]) => {
    let { line, simple } = spelling;
    for (const layer of layers) {
      if ('prefix' in layer) {
        // A prefix takes one simple command: hand it a shell running anything else.
        line = `${layer.prefix} ${simple ? line : `bash -c ${sq(line)}`}`;
        simple = true;
      } else {
        line = lineWrappers[layer.line]!(line);
        simple = false;
      }
    }
    return line;
  });

const settings = { seed: 20_261_201, numRuns: 3_000 };

describe('random wrappings of `rm f` under `deny rm *`', () => {
  it('are denied: never allowed, never asked, for the agent and for a child that allows all bash', () => {
    const policy = new PermissionPolicy({ rules });
    const child = policy.child([{ tool: 'bash', action: 'allow', priority: 100 }]);
    fc.assert(
      fc.property(wrapped, (line) => {
        expect(policy.evaluate('bash', line).action, JSON.stringify(line)).toBe('deny');
        expect(child.evaluate('bash', line).action, JSON.stringify(line)).toBe('deny');
      }),
      settings,
    );
  });

  it('are real bash: a sample passes `bash -n` (parsed, never run)', () => {
    for (const line of fc.sample(wrapped, { seed: settings.seed, numRuns: 120 })) {
      const check = spawnSync('bash', ['-n', '-c', line], { encoding: 'utf8' });
      expect(check.status, `${JSON.stringify(line)}: ${check.stderr}`).toBe(0);
    }
  });
});
