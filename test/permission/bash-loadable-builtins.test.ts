import { afterEach, describe, expect, it } from 'vitest';
import { PermissionPolicy, type PermissionRule } from '../../src/permission/index.js';
import { own } from '../support/collect-events.js';
import { runHostileCalls, tempWorkspace } from './tool-calls-over-http.js';

// bash's `enable -f lib.so name` loads a builtin from a shared library the model wrote
// (or `BASH_LOADABLES_PATH` says where to find it): code the line does not show, like a
// script file. Under a bash deny rule it ran unchecked; it is now a line the checker
// cannot read, denied while a deny rule is in force.

const rules: PermissionRule[] = [
  { tool: 'bash', action: 'allow' }, // a trusted sandbox...
  { tool: 'bash', action: 'deny', pattern: 'rm *' }, // ...that never runs rm
];

let cleanup: (() => Promise<void>) | undefined;
afterEach(async () => {
  await cleanup?.();
  cleanup = undefined;
});

describe('loadable builtins', () => {
  it.each([
    ['enable -f ./evil.so git; git status', '"enable -f", which loads a builtin from a file'],
    ['builtin enable -af ./evil.so ls', '"enable -f", which loads a builtin from a file'],
    ['BASH_LOADABLES_PATH=. enable -f evil git', 'a change of BASH_LOADABLES_PATH'],
  ])('%j is denied under deny rm *, saying why', (line, why) => {
    const decision = new PermissionPolicy({ rules }).evaluate('bash', line);
    expect(decision.action).toBe('deny');
    expect(decision.reason).toContain(why);
  });

  it.each(['enable', 'enable -n echo', 'enable -p'])('%j, which loads nothing, stays allowed', (line) => {
    expect(new PermissionPolicy({ rules }).evaluate('bash', line).action).toBe('allow');
  });

  it('is refused in a real run before anything runs', async () => {
    const ws = await tempWorkspace('rxharness-enable-f-');
    cleanup = ws.cleanup;
    const events = await runHostileCalls(ws.dir, [{ name: 'bash', arguments: { command: 'enable -f ./evil.so git; git status' } }], {
      permissionRules: rules,
    });
    expect(own(events, 'ToolCallEnd').map((e) => e.error)).toEqual([
      'Permission denied: denied: the command has "enable -f", which loads a builtin from a file, so the bash deny rules cannot check it',
    ]);
  });
});
