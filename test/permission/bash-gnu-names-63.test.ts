import { describe, expect, it } from 'vitest';
import { bashSandbox, denyRm, denySrc, itAllowsEach, itDeniesEach } from './support/bash-sandbox.js';

// GNU sed and find as BSD systems and Homebrew install them (`gsed`, `gfind`) are read as sed
// and find: `gsed -i` writes, its `e` command runs commands, `gfind -delete` removes and
// `gfind -exec` runs a command. (awk's other names, `gawk`, `mawk`, `nawk`, were read already.)

const sandbox = bashSandbox('rx-gnu-names-');

/** The line run with `gsed` and `gfind` being this system's GNU sed and find. */
const named = (line: string): string =>
  `mkdir bin && ln -s "$(command -v sed)" bin/gsed && ln -s "$(command -v find)" bin/gfind && PATH="$PWD/bin:$PATH" && ${line}`;

/** sed's writes, which a bash rule on `rm *` leaves alone, as it does `sed -i`'s. */
const SED_WRITES = ['gsed -i s/a/b/ src/a', 'gsed -ie s/a/b/ src/a', "gsed -n 'w src/a' cmds", '/usr/local/bin/gsed -i s/a/b/ src/a'];
const FIND_REMOVES = ['gfind src -delete', 'gfind src -exec rm {} \\;'];
const RUNS = ['gsed e cmds', "gsed -n '1e touch ran' src/a", "gsed 's/ran/ran/e' cmds"];

describe('GNU sed and find under their g names', () => {
  it('bash changes src/a with each write (the attacks are real)', () => {
    for (const line of [...SED_WRITES.slice(0, -1), ...FIND_REMOVES]) expect(sandbox(named(line)).changed, line).toBe(true);
  }, 60_000);

  it('bash runs a command with each e (the attacks are real)', () => {
    for (const line of RUNS) expect(sandbox(named(line)).ran, line).toBe(true);
  }, 60_000);

  it.each(SED_WRITES)('%j is denied under deny write src/**', (line) => {
    expect(denySrc.evaluate('bash', line).action).toBe('deny');
  });
  itDeniesEach(FIND_REMOVES);
  itDeniesEach(RUNS, 'a sed script running commands');
});

// Homebrew's coreutils, findutils, tar and make name all of GNU's programs so (`gxargs`, `grm`,
// `gsort`...): each is read as its plain twin, as a wrapper, a remover or a writer.
// [g line, its plain twin, the policy that denies the twin, whether bash can show it acting here]
const TWINS: readonly (readonly [string, string, 'rm' | 'src', boolean])[] = [
  ['echo src | gxargs rm -rf', 'echo src | xargs rm -rf', 'rm', true],
  ['genv rm -rf src', 'env rm -rf src', 'rm', true],
  ['gnice rm -rf src', 'nice rm -rf src', 'rm', true],
  ['gnohup rm -rf src', 'nohup rm -rf src', 'rm', true],
  ['gstdbuf -o0 rm -rf src', 'stdbuf -o0 rm -rf src', 'rm', true],
  ['gtimeout 5 rm -rf src', 'timeout 5 rm -rf src', 'rm', true],
  ['gchroot / rm -rf src', 'chroot / rm -rf src', 'rm', false],
  ['grm -rf src', 'rm -rf src', 'rm', true],
  ['gsort -o src/a cmds', 'sort -o src/a cmds', 'src', true],
  ['gsplit -l 1 cmds src/x', 'split -l 1 cmds src/x', 'src', true],
  ['gcsplit -f src/x cmds 1', 'csplit -f src/x cmds 1', 'src', true],
  ['guniq cmds src/a', 'uniq cmds src/a', 'src', true],
  ['gtee src/a < cmds', 'tee src/a < cmds', 'src', true],
  ['gcp cmds src/a', 'cp cmds src/a', 'src', true],
  ['gmv cmds src/a', 'mv cmds src/a', 'src', true],
  ['gln -sf ../cmds src/a', 'ln -sf ../cmds src/a', 'src', true],
  ['ginstall cmds src/a', 'install cmds src/a', 'src', true],
  ['gdd if=cmds of=src/a', 'dd if=cmds of=src/a', 'src', true],
  ['gtruncate -s 0 src/a', 'truncate -s 0 src/a', 'src', true],
  ['gshred src/a', 'shred src/a', 'src', true],
  ['gtouch src/b', 'touch src/b', 'src', true],
  ['gmkdir src/b', 'mkdir src/b', 'src', true],
  ['gchmod 644 src/a', 'chmod 644 src/a', 'src', false],
  ['gchown "$USER" src/a', 'chown "$USER" src/a', 'src', false],
  ['gtar -xf a.tar', 'tar -xf a.tar', 'src', false],
  ['gmake CC="rm -rf src"', 'make CC="rm -rf src"', 'rm', false],
];

/** The line run with each g name linked to this system's GNU program; a new name in src counts as a change of it. */
const linked = (line: string): string => {
  const names = ['xargs', 'env', 'nice', 'nohup', 'stdbuf', 'timeout', 'rm', 'sort', 'split', 'csplit', 'uniq', 'tee', 'cp', 'mv', 'ln', 'install', 'dd', 'truncate', 'shred', 'touch', 'mkdir'];
  const links = names.map((n) => `ln -s "$(command -v ${n})" bin/g${n}`).join(' && ');
  return `mkdir bin && ${links} && PATH="$PWD/bin:$PATH" && ${line}; ls src | grep -qvx a && rm -rf src`;
};

describe("GNU's other programs under their g names", () => {
  it('bash acts on src with each, as with its twin (the attacks are real)', () => {
    for (const [g, plain] of TWINS.filter((row) => row[3])) {
      expect(sandbox(linked(g)).changed, g).toBe(true);
      expect(sandbox(linked(plain)).changed, plain).toBe(true);
    }
  }, 60_000);

  it.each(TWINS.map(([g, plain, policy]) => [g, plain, policy] as const))('%j is denied as %j is', (g, plain, policy) => {
    const rules = policy === 'rm' ? denyRm : denySrc;
    expect(rules.evaluate('bash', plain).action, plain).toBe('deny');
    expect(rules.evaluate('bash', g).action, g).toBe('deny');
  });

  // The reasons quote the name as the line wrote it.
  it.each([
    ["gsort --compress-program='rm -rf src' cmds", 'an option of gsort that runs a command'],
    ['gtar -xf a.tar', 'gtar extracting an archive'],
  ])('%j is denied, the reason saying %j', (line, reason) => {
    const decision = denyRm.evaluate('bash', line);
    expect(decision.action).toBe('deny');
    expect(decision.reason).toContain(reason);
  });
});

describe('ordinary gsed and gfind lines stay allowed', () => {
  itAllowsEach(['gsort -u cmds', 'echo a | gxargs echo', 'gtimeout 5 grep -r foo .', "gsed -n 's/a/b/p' f", "gfind . -name '*.ts' -exec grep -l foo {} +", 'gawk \'{print $1}\' f', 'mawk -F: \'{print $2}\' f']);
});
