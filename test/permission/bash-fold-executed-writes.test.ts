/**
 * The bash check of writes into files other programs run (`executed-writes`, and the globs it
 * reads with `glob-match`) compared names lower-cased with `toLowerCase()`, which leaves `ſ`
 * (long s, U+017F) as it is. A file system that ignores case folds it to `s` (Windows upper-cases
 * it to `S`; macOS folds it by Unicode's case folding), so there `.vſcode/tasks.json` is the
 * `.vscode/tasks.json` the editor runs, and `.rxharneſſ/` is `.rxharness/`. The write tools'
 * any-case asks already fold (`foldCase`); these are the same names spelled for the bash check.
 * On Linux's ext4 the spellings are two files, so the tests assert the checker's verdict, not
 * the disk: in real bash, `echo x > .vſcode/task?.json` with a folder `.vſcode` holding
 * `tasks.json` wrote that file (a glob's plain folder segment is opened as written, so on a
 * case-free disk it is `.vscode`). The Kelvin sign needs no test here: `toLowerCase` maps it to `k`.
 */
import { describe, expect, it } from 'vitest';
import type { PermissionRule } from '../../src/permission/permission-rule.js';
import { PermissionPolicy } from '../../src/permission/permission-policy.js';
import { globMatcher } from '../../src/permission/bash/glob-match.js';

const S = '\u017F';
const DENY_RM: PermissionRule[] = [{ tool: 'bash', action: 'allow' }, { tool: 'bash', action: 'deny', pattern: 'rm *' }];
const decide = (line: string) => new PermissionPolicy({ rules: DENY_RM }).evaluate('bash', line);

describe('a bash write into a file other programs run, spelled with a long s', () => {
  it.each([
    [`echo x > .v${S}code/tasks.json`, 'echo x > .vscode/tasks.json'],
    [`echo x > .rxharne${S}${S}/agents/a.md`, 'echo x > .rxharness/agents/a.md'],
    [`cat evil > web/.hu${S}ky/pre-push`, 'cat evil > web/.husky/pre-push'],
    [`cp -r hooks .hu${S}ky`, 'cp -r hooks .husky'],
  ])('%s is refused under a bash deny rule, as %s is', (line, plain) => {
    expect(decide(plain).action).toBe('deny');
    const decided = decide(line);
    expect(decided.action).toBe('deny');
    expect(decided.reason).toContain('a write to a file other programs run');
  });

  it('names that only look alike stay allowed', () => {
    for (const line of ['echo x > .vscode-notes.md', 'echo x > src/husky.ts', `echo x > ${S}rc/a.ts`]) expect(decide(line).action, line).toBe('allow');
  });
});

describe('a glob whose plain folder segment is one of these folders, spelled with a long s', () => {
  it(`echo x > .v${S}code/task?.json is refused, as echo x > .vscode/task?.json is`, () => {
    expect(decide('echo x > .vscode/task?.json').action).toBe('deny');
    expect(decide(`echo x > .v${S}code/task?.json`).action).toBe('deny');
    expect(decide(`echo x > .rxharne${S}${S}/agents/*.md`).action).toBe('deny');
  });

  it('a caseless glob matcher folds the segment and the name alike', () => {
    expect(globMatcher(`.v${S}cod?`, { caseless: true }).test('.vscode')).toBe(true);
    expect(globMatcher('.VSCOD?', { caseless: true }).test(`.v${S}code`)).toBe(true);
    // Without `caseless` letters stay exact: `linked-globs` reads globs on a real disk so.
    expect(globMatcher(`.v${S}cod?`).test('.vscode')).toBe(false);
  });
});
