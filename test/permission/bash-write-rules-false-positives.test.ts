import { describe, expect, it } from 'vitest';
import { PermissionPolicy, type PermissionRule } from '../../src/permission/index.js';

// Ordinary lines that write nothing under src/ were denied under `deny write src/**`: a sed
// script or its `-e` value read as an in-place file, a `w` inside a word read as sed's write
// command, any quoted string of an awk program read as a file, `uniq -f 1`'s value read as
// its output, a `>` comparing in `[[ ]]` read as a redirection, `git grep -o` read as an
// output option; and a glob wholly inside a higher-priority write allow was denied all the same.

const DENY_SRC: PermissionRule[] = [{ tool: 'bash', action: 'allow' }, { tool: 'write', action: 'deny', pattern: 'src/**' }];
const policy = new PermissionPolicy({ rules: DENY_SRC });

describe('lines that write nothing under src/ under deny write src/**', () => {
  it.each([
    'sed -n s/src/lib/p src/a.ts', "sed -e 's/a/b/' -e 's/src/x/' README.md",
    "sed -n '/throw/,$p' README.md", "sed -n '/new src/p' README.md", "sed -n '10,$p' notes.txt", "sed -n '/warn/p' log.txt",
    "sed 's/x/y/w out.txt' README.md", "sed -n '/a/{s/b/c/;p}' f", "sed '1i\\\nheader' f", "sed 'y/abc/xyz/' f",
    "awk '{print \"src/\" $0}' files.txt", "awk '$1 == \"src/a.ts\"' log", "awk '{print ($2 > 10 ? \"big\" : \"small\")}' data",
    "awk '{ if ($2 > 10) print $1 }' data", "awk '{print > \"out.txt\"}' src/a.ts",
    'uniq -f 1 src/a.ts', 'uniq -s 2 src/a.ts', 'uniq -w 10 src/a.ts', 'uniq -c src/a.ts',
    '[[ $a > $b ]] && echo yes', '[[ a > b ]]',
    "git grep -o 'src/[a-z]*' lib", 'git log -p -o src/a.ts', 'git commit -o src/a.ts -m fix',
  ])('%s stays allowed', (line) => {
    expect(policy.evaluate('bash', line).action).toBe('allow');
  });

  it.each([
    ['sed -i s/a/b/ src/a.ts', 'src/a.ts'], ["sed -n 's/a/b/w src/a.ts' y", 'src/a.ts'], ["sed -n '/x/w src/a.ts' y", 'src/a.ts'],
    ['sed --in s/a/b/ src/a.ts', 'src/a.ts'], ["awk '{print > \"src/a.ts\"}' y", 'src/a.ts'], ["awk '{printf \"%s\", $1 >> \"src/a.ts\"}' y", 'src/a.ts'],
    ['uniq -f 1 y src/a.ts', 'src/a.ts'], ['[[ a ]] > src/a.ts', 'src/a.ts'], ["echo '[[' > src/a.ts", 'src/a.ts'],
    ['git format-patch -o src HEAD~1', 'src'], ['git archive -o src/a.tar HEAD', 'src/a.tar'],
  ])('%s is still denied, naming %s', (line, path) => {
    const decision = policy.evaluate('bash', line);
    expect(decision.action).toBe('deny');
    expect(decision.reason).toContain(`"${path}"`);
  });

  it('judges a sed script read from a file, or one it cannot read, as writing any path', () => {
    expect(policy.evaluate('bash', 'sed -f fix.sed x.txt').reason).toContain('script from a file');
    expect(policy.evaluate('bash', "sed 'k' x.txt").reason).toContain('cannot read');
  });

  it('names the folder of cp -t once', () => {
    const { reason } = policy.evaluate('bash', 'cp -t src y');
    expect(reason).toContain('"src/y"');
    expect(reason).not.toContain('src/src');
  });
});

describe('a glob wholly inside a higher-priority write allow', () => {
  const rules: PermissionRule[] = [
    { tool: 'bash', action: 'allow' }, { tool: 'write', action: 'deny' }, { tool: 'edit', action: 'deny' },
    { tool: 'write', action: 'allow', pattern: 'src/**', priority: 10 }, { tool: 'edit', action: 'allow', pattern: 'src/**', priority: 10 },
  ];
  const narrow = new PermissionPolicy({ rules });

  it.each(['sed -i s/a/b/ src/*.ts', 'sed -i s/a/b/ src/a.ts', 'sed -i -e s/a/b/ -e s/c/d/ src/a.ts', 'echo x > src/a.ts', 'cp y src/lib/*/'])('%s is allowed', (line) => {
    expect(narrow.evaluate('bash', line).action).toBe('allow');
  });

  // A part known only when it runs may hold `../`; a glob segment starting with `.` may match `..`.
  it.each(['echo x > src/$n.ts', 'echo x > src/.?/etc/a', 'echo x > src/[.][.]/a', 'cd lib && sed -i s/a/b/ src/*.ts', 'echo x > lib/*.ts'])(
    '%s is still denied',
    (line) => {
      expect(narrow.evaluate('bash', line).action).toBe('deny');
    },
  );
});
