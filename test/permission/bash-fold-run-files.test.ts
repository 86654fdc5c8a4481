/**
 * A line that writes a file a program runs and runs the program (`echo … > package.json; npm
 * test`) is one the checker cannot read (`run-files`). It compared the names lower-cased with
 * `toLowerCase()`, which leaves `ſ` (long s, U+017F) as it is; a file system that ignores case
 * folds it to `s` (Windows upper-cases it to `S`, macOS folds it by Unicode's case folding), so
 * there npm reading `package.json` reads the `package.jſon` the line wrote. On Linux's ext4 they
 * are two files (in real bash `echo x > package.jſon` leaves `package.json` alone), so the test
 * asserts the checker's verdict, not the disk. The Kelvin sign needs no test: `toLowerCase`
 * already maps `MaKefile` to `makefile`.
 */
import { describe, expect, it } from 'vitest';
import type { PermissionRule } from '../../src/permission/permission-rule.js';
import { PermissionPolicy } from '../../src/permission/permission-policy.js';

const S = '\u017F';
const DENY_RM: PermissionRule[] = [{ tool: 'bash', action: 'allow' }, { tool: 'bash', action: 'deny', pattern: 'rm *' }];
const decide = (line: string) => new PermissionPolicy({ rules: DENY_RM }).evaluate('bash', line);

describe('a file a program on the line runs, written spelled with a long s', () => {
  it.each([
    [`echo '{"scripts":{"test":"rm v"}}' > package.j${S}on && npm test`, `echo '{"scripts":{"test":"rm v"}}' > package.json && npm test`, 'npm'],
    [`cp evil.js node_module${S}/.bin/je?t && npx jest`, 'cp evil.js node_modules/.bin/je?t && npx jest', 'npx'],
    [`echo 'x:;rm v' > ju${S}tfile; just x`, "echo 'x:;rm v' > justfile; just x", 'just'],
    // make's `-f` file, written or named in the other spelling.
    [`echo 'x:;rm v' > ${S}ub.txt; make -f sub.txt`, "echo 'x:;rm v' > sub.txt; make -f sub.txt", 'make'],
    [`echo 'x:;rm v' > sub.txt; make -f ${S}ub.txt`, "echo 'x:;rm v' > sub.txt; make -f sub.txt", 'make'],
  ])('%s is refused under a bash deny rule, as %s is', (line, plain, program) => {
    expect(decide(plain).action).toBe('deny');
    const decided = decide(line);
    expect(decided.action).toBe('deny');
    expect(decided.reason).toContain(`a file ${program} runs`);
  });

  it('a write of another name stays allowed', () => {
    for (const line of [`echo x > package.j${S}on.bak && npm test`, `echo x > notes.md; make -f ${S}ub.txt`]) expect(decide(line).action, line).toBe('allow');
  });
});
