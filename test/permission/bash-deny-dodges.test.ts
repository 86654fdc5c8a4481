import { existsSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ApprovalRequest } from '../../src/permission/approval.js';
import { evaluateRules, PermissionPolicy, type PermissionRule } from '../../src/permission/index.js';
import { own } from '../support/collect-events.js';
import { runHostileCalls, tempWorkspace } from './tool-calls-over-http.js';

// Issue 22 item 8: with a deny rule `rm *`, lines that run `rm` through a program the checker
// did not know, a script, an interpreter or a spelling it could not read deleted the file
// (allowed), or became an ask that an approve-all handler (`--yes`) approved. Each must be
// denied, never asked: a deny never becomes an approval.

/** A trusted sandbox that never runs rm: bash is allowed, `rm *` denied. */
const RULES: PermissionRule[] = [
  { tool: 'bash', action: 'allow' },
  { tool: 'bash', action: 'deny', pattern: 'rm *' },
];

/** [what it is, the line]. `s.sh` holds `rm f`; the file the lines go after is `f`. */
const DODGES: readonly (readonly [string, string])[] = [
  ['xargs adding the file at run time', 'echo f | xargs rm'],
  ['xargs with options', 'echo f | xargs -n1 rm'],
  ['find -delete', 'find . -name f -delete'],
  ['find -exec ;', 'find . -name f -exec rm {} \\;'],
  ['find -exec +', 'find . -name f -exec rm {} +'],
  ['find -execdir', 'find . -name f -execdir rm {} \\;'],
  ['script -qc', 'script -qc "rm f" /dev/null'],
  ['setarch', 'setarch x86_64 rm f'],
  ['linux64', 'linux64 rm f'],
  ['prlimit', 'prlimit --nofile=100 rm f'],
  ['setpriv', 'setpriv rm f'],
  ['fakeroot', 'fakeroot rm f'],
  ['nice', 'nice -n 5 rm f'],
  ['nohup', 'nohup rm f'],
  ['timeout', 'timeout 5 rm f'],
  ['env', 'env rm f'],
  ['stdbuf', 'stdbuf -o0 rm f'],
  ['ionice', 'ionice -c3 rm f'],
  ['taskset', 'taskset 1 rm f'],
  ['flock with a command', 'flock lock rm f'],
  ['flock -c', 'flock lock -c "rm f"'],
  ['unshare', 'unshare -r rm f'],
  ['chroot', 'chroot / rm f'],
  ['sudo', 'sudo rm f'],
  ['doas', 'doas rm f'],
  ['watch', "watch -n1 'rm f'"],
  ['parallel with :::', 'parallel rm ::: f'],
  ['parallel reading its input', 'echo f | parallel rm'],
  ['parallel with a command string', "parallel 'rm {}' ::: f"],
  ['BASH_ENV before bash -c', 'BASH_ENV=s.sh bash -c true'],
  ['BASH_ENV exported first', 'export BASH_ENV=s.sh; bash -c true'],
  ['BASH_ENV through env', 'env BASH_ENV=./s.sh bash -c true'],
  ['a script written then run', 'printf "rm f\\n" > t.sh; bash t.sh'],
  ['bash s.sh', 'bash s.sh'],
  ['sh s.sh', 'sh s.sh'],
  ['. ./s.sh', '. ./s.sh'],
  ['source', 'source s.sh'],
  ['a program file run by its path', 'chmod +x s.sh; ./s.sh'],
  ['awk calling system', `awk 'BEGIN { system("rm f") }'`],
  ['awk piping to sh', `awk 'BEGIN { print "rm f" | "sh" }'`],
  ['perl calling system', `perl -e 'system("rm f")'`],
  ['perl unlink', `perl -e 'unlink "f"'`],
  ['python -c', `python3 -c 'import os; os.remove("f")'`],
  ['node -e', `node -e 'require("fs").unlinkSync("f")'`],
  ['sed e', "sed -n '1e rm f' s.sh"],
  ['rm${IFS}f', 'rm${IFS}f'],
  ['brace expansion', '{rm,f}'],
  ['a name in a variable', 'x=rm; $x f'],
  ['eval of printf', `eval "$(printf 'rm f')"`],
  ['a substitution in command position', '$(echo rm) f'],
  ['backticks in command position', '`echo rm` f'],
];

/** Lines that would hang or need what the test machine lacks if they ever ran: decided, not run. */
const NOT_RUN = new Set(['watch', 'parallel with :::', 'parallel reading its input', 'parallel with a command string', 'doas']);

describe('a bash deny rule is never dodged, and never turned into an ask', () => {
  const policy = new PermissionPolicy({ rules: RULES });
  const child = policy.child([{ tool: 'bash', action: 'allow', priority: 100 }]);

  it.each(DODGES)('%s: %j is denied (policy, a child that allows all bash, evaluateRules)', (_what, line) => {
    expect(policy.evaluate('bash', line).action).toBe('deny');
    expect(child.evaluate('bash', line).action).toBe('deny');
    expect(evaluateRules(RULES, 'bash', line)?.action).toBe('deny');
  });

  it('the table holds every kind of line the issue names, at least 24', () => {
    expect(DODGES.length).toBeGreaterThanOrEqual(24);
  });

  it('says why a line it cannot read is denied', () => {
    expect(policy.evaluate('bash', 'bash s.sh').reason).toBe(
      'denied: the command has a shell running a script file ("bash"), so the bash deny rules cannot check it',
    );
    expect(policy.evaluate('bash', 'BASH_ENV=s.sh bash -c true').reason).toContain('a change of BASH_ENV');
  });

  it('still allows ordinary lines under the same rules', () => {
    for (const line of ['git status', 'ls -la', 'echo rm f', 'grep -rn "rm -rf" .', "awk '{ print $1 }' s.sh", "sed 's/a/b/' s.sh", 'timeout 5 npm test', 'python3 --version', 'cat s.sh | wc -l']) {
      expect(policy.evaluate('bash', line).action, line).toBe('allow');
    }
  });
});

describe('run for real: a hostile model tries each line through the engine', () => {
  let cleanup: (() => Promise<void>) | undefined;
  afterEach(async () => {
    await cleanup?.();
    cleanup = undefined;
  });

  const lines = DODGES.filter(([what]) => !NOT_RUN.has(what)).map(([, line]) => line);

  it.each([
    ['no approval handler', undefined],
    ['an approve-all handler (--yes)', 'approve'],
  ] as const)('with %s, every line is denied unasked, and the file is still there', async (_name, answer) => {
    const ws = await tempWorkspace('rxh-deny-dodges-');
    cleanup = ws.cleanup;
    await writeFile(join(ws.dir, 'f'), 'precious');
    await writeFile(join(ws.dir, 's.sh'), 'rm f\n');
    const asked: ApprovalRequest[] = [];
    const events = await runHostileCalls(
      ws.dir,
      lines.map((command) => ({ name: 'bash', arguments: { command } })),
      { permissionRules: RULES, maxSteps: lines.length + 5, ...(answer ? { approve: (request: ApprovalRequest) => (asked.push(request), { decision: answer }) } : {}) },
    );
    const ends = own(events, 'ToolCallEnd');
    expect(ends).toHaveLength(lines.length);
    for (const [i, end] of ends.entries()) expect(end.error, lines[i]).toMatch(/denied/i);
    expect(own(events, 'HITLPending')).toEqual([]);
    expect(asked).toEqual([]);
    expect(existsSync(join(ws.dir, 'f'))).toBe(true);
    expect(existsSync(join(ws.dir, 't.sh'))).toBe(false);
  });
});
