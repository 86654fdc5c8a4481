import { describe, expect, it } from 'vitest';
import { bashSandbox, denyRm, denySrc, itAllowsEach, itDeniesEach } from './support/bash-sandbox.js';

const sandbox = bashSandbox('rx-names-find-busybox-');

// A program installed under another name (`gxargs`, `gfind`, `genv`, `gtimeout`: see
// `program-names`) is read as its twin, but the reasons quote the name the line wrote.
const WORDS = Array.from({ length: 70 }, () => 'a').join(' ');

describe('reasons quote the name as written', () => {
  it.each([
    [`gtimeout --bogus 5 ${WORDS}`, 'more than 64 words after "gtimeout"'],
    ['echo a | gxargs -I% % x', '("%", filled in by gxargs)'],
    ['gfind . -exec {} x \\;', '("{}", filled in by gfind)'],
    // genv is env, a wrapper, as in `xargs -I{} env -S {}`: the name it fills in past env's options.
    ['echo a | gxargs -I{} genv -S {}', '("{}", filled in by gxargs)'],
  ])('%j is denied, the reason saying %j', (line, reason) => {
    const decision = denyRm.evaluate('bash', line);
    expect(decision.action).toBe('deny');
    expect(decision.reason).toContain(reason);
  });
});

// BSD's and macOS's find take a value after `-Btime`, `-Bmin`, `-Bnewer`, `-mnewer`,
// `-flags` and `-xattrname`: a quoted value known only when the line runs is that value, not a
// primary (`-delete`), as after `-name`.
const BSD_VALUED = ['-Btime', '-Bmin', '-Bnewer', '-mnewer', '-flags', '-xattrname'];

describe("BSD find's valued primaries", () => {
  itAllowsEach(BSD_VALUED.map((primary) => `find . ${primary} "$v" -print`));

  // A value is no action: `-name -delete` matches a file named `-delete`.
  it.each(['find . -Bnewer -delete -print', 'find . -flags -exec rm -rf src \\; -print', 'find . -name -delete -print'])('%j is allowed under deny rm *', (line) => {
    expect(denyRm.evaluate('bash', line).action).toBe('allow');
  });

  // ...while a command or a removal after the value is still judged, and an unquoted value may still split.
  itDeniesEach([
    ...BSD_VALUED.map((primary) => `find src ${primary} "$v" -exec rm -rf src \\;`),
    ...BSD_VALUED.map((primary) => `find src ${primary} "$v" -delete`),
    ...BSD_VALUED.map((primary) => `find src ${primary} $v -print`),
  ]);
});

// A `+` ends find's `-exec` command only after `{}`: past `-exec echo +` find reads on to the
// `;`, so a `-fprintf` read there must not take the `;` and a later primary as its values.
const PLUS_INSIDE = ["x=-delete; find src -exec echo + -fprintf \\; \"$x\"", 'find src -exec echo + -fprintf \\; -delete'];

describe("a primary's value never runs past a ; or +", () => {
  it('bash removes src/a with each (the attacks are real)', () => {
    for (const line of PLUS_INSIDE) expect(sandbox(line).changed, line).toBe(true);
  }, 60_000);

  itDeniesEach(PLUS_INSIDE);
});

// busybox and toybox run the applet their first word names: its other words are its own
// arguments, not commands (`s/a/b/` is no program run from a file).
describe('busybox and toybox', () => {
  itAllowsEach(['busybox sed -i s/a/b/ f', 'toybox sed -i s/a/b/ f', 'busybox grep -r foo src/', 'busybox --list rm -rf src']);

  itDeniesEach(['busybox rm -rf src', 'toybox rm -rf src', 'busybox /bin/rm -rf src', "busybox sh -c 'rm -rf src'", 'echo src | busybox xargs rm -rf', 'busybox find src -delete', 'busybox --help rm -rf src']);

  it('sed writing src/a through busybox is denied under deny write src/**', () => {
    expect(denySrc.evaluate('bash', 'busybox sed -i s/a/b/ src/a').action).toBe('deny');
  });
  it('an applet only known when the line runs is denied under deny rm *', () => {
    expect(denyRm.evaluate('bash', 'busybox "$x" -rf src').action).toBe('deny');
  });
});
