import { existsSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { PermissionPolicy, type PermissionRule } from '../../src/permission/index.js';
import { own } from '../support/collect-events.js';
import { runHostileCalls, tempWorkspace } from './tool-calls-over-http.js';

// A deny or ask rule on a command's arguments (`git push*`) was matched against the
// arguments as written, so a hostile model spelt them so that only the shell would put them
// together: `git pu${x}sh --force` (x unset) or `git pus? --force` (after creating a file
// `push`) ran a forced push under the guide's own example rules (allow `git *`, deny
// `git push*` at priority 10), unasked. The same for a command name `r[m]` (a class the
// shell parser did not mark as a glob). Such parts are now read as wildcards.

const guideRules: PermissionRule[] = [
  { tool: 'bash', action: 'allow', pattern: 'git *' },
  { tool: 'bash', action: 'deny', pattern: 'git push*', priority: 10 },
];

let cleanup: (() => Promise<void>) | undefined;
afterEach(async () => {
  await cleanup?.();
  cleanup = undefined;
});

const SPELLINGS = ['git pu${x}sh --force', 'git pu$x"sh" --force', 'git pus? --force', 'git pus[h] --force', 'git {push,--force}', 'git "$(printf push)" --force', 'git $GIT_SUB --force'];

describe('bash arguments known only when the command runs', () => {
  it.each(SPELLINGS)('%j is denied under allow git * and deny git push*', (line) => {
    const decision = new PermissionPolicy({ rules: guideRules }).evaluate('bash', line);
    expect(decision.action).toBe('deny');
    expect(decision.reason).toContain('denied by rule {tool: "bash", action: deny, pattern: "git push*", priority: 10}');
  });

  it('asks under an ask rule, and says which shape it matched', () => {
    const policy = new PermissionPolicy({ rules: [{ tool: 'bash', action: 'allow' }, { tool: 'bash', action: 'ask', pattern: 'git push*' }] });
    expect(policy.evaluate('bash', 'git pus? origin')).toMatchObject({
      action: 'ask',
      reason: 'approval required by rule {tool: "bash", action: ask, pattern: "git push*"} (for "git pus? origin": parts of the command are known only when it runs, and then it may match)',
    });
  });

  // Not `git log $ref`: `$ref` may be `--output=.git/config`, so that line is unreadable (bash-git-runs.test.ts).
  it.each(['git checkout $ref', 'git status *.ts', 'git commit -m "$msg"', 'echo $HOME', 'ls *.md'])('%j, which no expansion turns into a push, is judged as before', (line) => {
    const rules = [...guideRules, { tool: 'bash', action: 'allow', pattern: '{echo,ls} *' } as const];
    expect(new PermissionPolicy({ rules }).evaluate('bash', line).action).toBe('allow');
  });

  it('refuses each spelling in a real run, the model reading why, and runs none of them', async () => {
    const ws = await tempWorkspace('rxharness-run-time-args-');
    cleanup = ws.cleanup;
    await mkdir(join(ws.dir, 'victim'));
    await writeFile(join(ws.dir, 'push'), ''); // what `git pus?` expands to
    await writeFile(join(ws.dir, 'rm'), ''); // what `r[m]` expands to
    const calls = [...SPELLINGS, 'r[m] -rf victim'].map((command) => ({ name: 'bash', arguments: { command } }));
    const events = await runHostileCalls(ws.dir, calls, {
      permissionRules: [...guideRules, { tool: 'bash', action: 'allow', pattern: 'r*', priority: 1 }, { tool: 'bash', action: 'deny', pattern: 'rm *', priority: 2 }],
      approve: () => ({ decision: 'approve' }), // a human who would say yes: a deny must not reach them
    });
    const ends = own(events, 'ToolCallEnd');
    expect(ends).toHaveLength(calls.length);
    for (const end of ends.slice(0, -1)) expect(end.error).toMatch(/^Permission denied: denied by rule \{tool: "bash", action: deny, pattern: "git push\*", priority: 10\}/);
    expect(ends.at(-1)!.error).toMatch(/^Permission denied: denied: the command has a command name only known when it runs \("r\[m\]"\)/);
    expect(own(events, 'HITLPending')).toEqual([]);
    expect(existsSync(join(ws.dir, 'victim'))).toBe(true);
  });
});
