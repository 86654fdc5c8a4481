import { describe, expect, it } from 'vitest';
import { PermissionPolicy, type PermissionRule } from '../../src/permission/index.js';

// Lines that wrote under a denied folder all the same: through a link the line makes to a
// folder holding it (`ln -s . l`), by climbing out of the workspace to an absolute path, with
// an option's value after the operands moving the guessed destination, with an abbreviated
// long option, through git commands that fill a folder, and with tools whose output file
// was not read at all.

const allowBash: PermissionRule = { tool: 'bash', action: 'allow' };
const denySrc = new PermissionPolicy({ rules: [allowBash, { tool: 'write', action: 'deny', pattern: 'src/**' }] });
const denyEtc = new PermissionPolicy({ rules: [allowBash, { tool: 'write', action: 'deny', pattern: '/etc/**' }] });
const denyPem = new PermissionPolicy({ rules: [allowBash, { tool: 'write', action: 'deny', pattern: 'keys/*.pem' }] });

describe('writes into src/ under deny write src/**', () => {
  it.each([
    // Links to a folder holding the workspace, or to the denied folder.
    'ln -s . l && echo x > l/src/a', 'ln -s .. up && echo x > up/ws/src/a', 'ln -s / r && echo x > r/home/u/ws/src/a', 'cp -s . l2', 'ln -s ../.. top',
    // Values of options after the operands.
    'cp y src/a -S .bak', 'cp y src/a --suffix .bak', 'mv y src/a -S .bak', 'install y src/a -m 644', 'install y src/a -o root',
    'rsync y src/a -e ssh', 'rsync y src/a --exclude x', 'ln y src/a -S x', 'cp y src/a -Z',
    // Abbreviated long options.
    'sed --in s/a/b/ src/a', 'sed --in-pl=.bak s/a/b/ src/a', 'sort --o src/a y', 'cp --targ src y', 'cp --target=src y',
    // git.
    'git mv evil.ts src/a.ts', 'git clone /tmp/evil src/x', 'git clone https://x/src.git', 'git init src/x', 'git submodule add https://x/y src/x',
    'git checkout-index -a --prefix=src/', 'git --work-tree=src checkout HEAD -- .', 'git --work-tree src status', 'git bundle create src/a HEAD',
    'git update-index --add --cacheinfo 100644,abc,src/a && git checkout -- src/a',
    // Tools that write a file an option or an operand names.
    'xxd -r -p h src/a', 'openssl enc -d -base64 -in y -out src/a', 'openssl genrsa -out src/k.pem 2048', 'iconv -f utf-8 -t utf-8 -o src/a y',
    'gpg --dearmor -o src/a y', 'gpg --output src/a -d y', 'split -b 100 y src/a', 'csplit -f src/a y 1', "script -q -c 'cat y' src/a",
    'tar -cf src/a.tar y', 'tar -czf src/a.tgz y', 'tar cf src/a.tar y', 'tar --create --file=src/a.tar y', 'tar -rf src/a.tar y',
    'curl -K cfg http://x', 'curl --config cfg http://x', "curl -o '#1' 'http://x/{src/a}'", 'wget -e output_document=src/a http://x',
    'wget --execute=output_document=src/a http://x',
  ])('%s is denied', (line) => {
    expect(denySrc.evaluate('bash', line).action).toBe('deny');
  });

  it.each([
    'cp -r src out', 'cp src/a.ts /tmp/', 'rsync -a src/ backup/', 'tar -czf backup.tgz src', 'tar -xOf a.tar', 'ln -s /opt/tool/bin/x bin/x',
    'git clone https://x/y.git', 'git init', 'git mv a.ts b.ts', 'git archive -o out.tar HEAD', 'split -b 100 src/a.ts out/part-',
    'openssl dgst -sha256 src/a.ts', 'xxd src/a.ts', 'gpg --verify src/a.ts.sig', "iconv -f latin1 -t utf-8 src/a.ts > out.txt",
    'curl -o out.html http://x', 'wget -q http://x/a -O out',
  ])('%s stays allowed', (line) => {
    expect(denySrc.evaluate('bash', line).action).toBe('allow');
  });
});

describe('sed scripts whose text lines might hide a "w" command', () => {
  // `a\` text ends at a line not ending in a backslash (one followed by a space does not count);
  // a bare line break ends no regular expression, so the next line is a command.
  it.each(["sed '1a\\\ntext\\ \nw src/a' f", "sed '1a\\\ns/x/\nw src/a\n/x/p' f", "sed -n '\\,x,w src/a' f", "sed -e p -e 'w src/a' f"])(
    '%j is denied',
    (line) => {
      expect(denySrc.evaluate('bash', line).action).toBe('deny');
    },
  );

  it('leaves a "w" inside appended text alone', () => {
    expect(denySrc.evaluate('bash', "sed '1a\\\ntext\\\nw src/a' f").action).toBe('allow');
  });
});

describe('awk prints whose redirection hides behind a regular expression or a second program', () => {
  it.each([
    `awk '{print /\\(/ > "src/a"}' y`, `awk '{print /[(]/ > "src/a"}' y`, `awk '{print /;/ > "src/a"}' y`, `awk '{print ($1 ~ /[)]/) > "src/a"}' y`,
    `gawk -e 'BEGIN{}' -e '{print > "src/a"}' y`, "awk --include inplace '{print}' src/a", "awk -f prog.awk y",
  ])('%s is denied', (line) => {
    expect(denySrc.evaluate('bash', line).action).toBe('deny');
  });
});

describe('paths that climb out of the workspace', () => {
  it.each(['echo x > ../../../../../../../../../../etc/passwd', 'echo x > ../../etc/passwd', 'ln -s / r && echo x > r/etc/passwd', 'ln -s ../../../../../../../../etc e'])(
    '%s is denied under deny write /etc/**',
    (line) => {
      expect(denyEtc.evaluate('bash', line).action).toBe('deny');
    },
  );

  it('leaves a path that stays inside alone', () => {
    expect(denyEtc.evaluate('bash', 'echo x > etc/passwd.txt').action).toBe('allow');
  });
});

describe('a symbolic link read from its own folder', () => {
  const denySubX = new PermissionPolicy({ rules: [allowBash, { tool: 'write', action: 'deny', pattern: 'sub/x/**' }] });

  it.each(['ln -s x sub/l && echo y > sub/l/a', 'ln -s ../x sub/y/l', 'cp -s x sub/l'])('%s is denied under deny write sub/x/**', (line) => {
    expect(denySubX.evaluate('bash', line).action).toBe('deny');
  });

  it('leaves links elsewhere alone', () => {
    expect(denySubX.evaluate('bash', 'ln -s /opt/x sub/l').action).toBe('allow');
    expect(denySubX.evaluate('bash', 'ln -s a.ts b.ts').action).toBe('allow');
  });
});

describe('links to a denied folder', () => {
  it.each(['ln -s keys k && echo x > k/a.pem', 'cp -s keys k2', 'ln -s keys'])('%s is denied under deny write keys/*.pem', (line) => {
    expect(denyPem.evaluate('bash', line).action).toBe('deny');
  });
});
