import { describe, expect, it } from 'vitest';
import { PermissionPolicy } from '../../src/permission/index.js';

// A review found the any-case defaults lower-cased with `toLowerCase()`, which leaves `ſ`
// (long s, U+017F) as it is, while a file system that ignores case (Windows, macOS) takes
// `.rxharneſſ` for `.rxharness`: a model could plant an agent definition, or a task in
// `.vſcode/`, without being asked.

const policy = new PermissionPolicy();
const LONG_S = '\u017F';
const KELVIN = '\u212A';

describe('the any-case defaults fold letters as a case-free file system does', () => {
  it.each([
    `.rxharne${LONG_S}${LONG_S}/agents/evil.md`,
    `pkg/.RXHARNE${LONG_S}S/agents/evil.md`,
    `.v${LONG_S}code/tasks.json`,
    `web/.hu${LONG_S}ky/pre-push`,
    `web/.hus${KELVIN}y/pre-push`,
    '.rxharneß/agents/evil.md', // `ß` is `SS` upper-cased: asking more is the safe side
  ])('write and edit of %s ask', (path) => {
    for (const tool of ['write', 'edit']) expect(policy.evaluate(tool, path).action, `${tool} ${path}`).toBe('ask');
  });

  it('a path longer than any real one is folded too', () => {
    expect(policy.evaluate('write', `${'a/'.repeat(2100)}.rxharne${LONG_S}${LONG_S}/agents/x.md`).action).toBe('ask');
  });

  it('the pattern and the subject fold alike: plain other-case names still ask, and unrelated names do not', () => {
    for (const path of ['.NPMRC', '.Npmrc', 'sub/.GIT/config', '.RXHARNESS/agents/x.md']) expect(policy.evaluate('write', path).action, path).toBe('ask');
    // `İ` lower-cases to `i` and a combining dot, which neither macOS nor Windows takes for `i`.
    for (const path of ['.GİT/config', 'src/Git/config.ts', '.rxharness-notes.md']) expect(policy.evaluate('write', path).action, path).toBe('allow');
  });
});
