import { describe, expect, it } from 'vitest';
import { PermissionPolicy } from '../../src/permission/permission-policy.js';
import { bashSandbox, denyRm, denySrc, itAllowsEach, itDeniesEach } from './support/bash-sandbox.js';

const sandbox = bashSandbox('rx-leftovers-65-');

/** The line, then `src` removed when it holds anything but `a`: a new name in src counts as a change of it. */
const made = (line: string): string => `${line}; ls -A src | grep -qvx a && rm -rf src`;
/** Allows every bash line, denies writes matching `pattern`. */
const denyWrite = (pattern: string): PermissionPolicy => new PermissionPolicy({ rules: [{ tool: 'bash', action: 'allow' }, { tool: 'write', action: 'deny', pattern }] });

// BSD's find (macOS's too) ends the command of -exec at any word starting with `;`, or with `+`
// right after `{}` (FreeBSD's c_exec tests `**ap == ';'`); what follows is read as its primaries,
// where GNU's reads the command on. GNU's find cannot show it here: the policy reads both ways.
describe("BSD find's end of -exec at a word starting with ; or +", () => {
  itDeniesEach([
    'find src -exec echo {} \\;x -delete',
    "find src -exec echo {} ';x' -exec rm -rf src \\;",
    'find src -exec echo {} +x -exec rm -rf src \\;',
    // A word only known when it runs that starts with an expansion may start with `;` then.
    "x=';'; find src -exec true \"$x/y\" -exec rm -rf src \\;",
  ]);

  // Past such a word a fixed word that is no primary makes find refuse the line.
  itAllowsEach(["find src -exec grep -e ';x' {} +", "find . -name ';*' -print", "find src -exec echo ';' \\;"]);
});

describe('GNU -Z takes no value', () => {
  const WRITES = ['mkdir -Z src/b', 'mkdir -pZ src/b', 'mkdir -Z src/b src/c', 'mkfifo -Z src/b', 'mknod -Z src/b p', 'cp -Z cmds src/b', 'install -Z cmds src/b', 'mv -Z cmds src/b'];

  it('bash makes a name in src with each (the attacks are real)', () => {
    for (const line of WRITES) expect(sandbox(made(line)).changed, line).toBe(true);
  }, 60_000);

  it.each(WRITES)('%j is denied under deny write src/**', (line) => {
    expect(denySrc.evaluate('bash', line).action).toBe('deny');
  });
});

describe("a word of the command find -exec runs is none of find's actions", () => {
  const HARMLESS = ['find src -exec echo -delete \\;', 'find . -exec echo -fprint src/x \\;', 'find src -exec echo -delete {} +'];

  it('bash changes nothing in src with each', () => {
    for (const line of HARMLESS) expect(sandbox(made(line)).changed, line).toBe(false);
  }, 60_000);

  itAllowsEach(HARMLESS);

  it('find\'s own -delete and -fprint after the end still write', () => {
    for (const line of ['find src -exec echo {} \\; -delete', 'find . -exec echo {} + -fprint src/x', 'x=-delete; find src -exec echo "$x" -delete \\;']) {
      expect(denySrc.evaluate('bash', line).action, line).toBe('deny');
    }
  });
});

describe("mktemp's folder", () => {
  const WRITES = ['mktemp -p src', 'mktemp -dp src', 'mktemp --tmpdir=src', 'TMPDIR=src mktemp', 'TMPDIR=src mktemp -d', 'TMPDIR=src mktemp -t x.XXXX', 'TMPDIR=src mktemp --tmpdir x.XXXX'];

  it('bash makes a name in src with each (the attacks are real)', () => {
    for (const line of WRITES) expect(sandbox(made(line)).changed, line).toBe(true);
  }, 60_000);

  it.each(WRITES)('%j is denied under deny write src/**', (line) => {
    expect(denySrc.evaluate('bash', line).action).toBe('deny');
  });

  // `$TMPDIR` is the user's, outside the workspace: judged as `/tmp`, as `touch /tmp/x` is.
  it('without a folder it writes in /tmp, judged as touch /tmp/x is', () => {
    const denyTmp = denyWrite('/tmp/**');
    for (const line of ['mktemp', 'mktemp -d', 'mktemp -t x.XXXX', 'mktemp --tmpdir', 'touch /tmp/x']) {
      expect(denyTmp.evaluate('bash', line).action, line).toBe('deny');
      expect(denySrc.evaluate('bash', line).action, line).toBe('allow');
    }
    expect(denyTmp.evaluate('bash', 'mktemp x.XXXX').action).toBe('allow');
  });
});

describe('busybox --install writes its links into a folder', () => {
  it.each(['busybox --install -s src', 'busybox --install src'])('%j is denied under deny write src/**', (line) => {
    expect(denySrc.evaluate('bash', line).action).toBe('deny');
  });

  it('without a folder, into the applets\' system folders; --list writes nothing', () => {
    expect(denyWrite('/usr/bin/**').evaluate('bash', 'busybox --install -s').action).toBe('deny');
    expect(denySrc.evaluate('bash', 'busybox --list').action).toBe('allow');
    expect(denySrc.evaluate('bash', 'busybox ls --install src').action).toBe('allow');
  });
});

describe('a wrapper of unknown syntax names itself in the reason', () => {
  it.each([
    ['doas /tmp/x', 'doas', '/tmp/x'],
    ['chronic ./x', 'chronic', './x'],
    ['doas -u root ./bin/tool', 'doas', './bin/tool'],
  ])('%j', (line, wrapper, file) => {
    const decision = denyRm.evaluate('bash', line);
    expect(decision.action).toBe('deny');
    expect(decision.reason).toContain(`a word after "${wrapper}", a wrapper whose syntax the rules do not know, which may be a program run from a file ("${file}")`);
  });

  it('a wrapper whose syntax is known keeps the plain reason', () => {
    expect(denyRm.evaluate('bash', 'sudo ./x').reason).toContain('a program run from a file ("./x")');
  });
});

// The command name xargs or find -exec fills in is found past a wrapper read by the name the
// checks know (`commandBase`): Homebrew's `gtimeout` is timeout, a disk ignoring case runs TIMEOUT.
describe('a filled-in command name past a wrapper under another name', () => {
  const linked = (line: string): string => `mkdir bin && ln -s "$(command -v timeout)" bin/gtimeout && PATH="$PWD/bin:$PATH" && ${line}`;

  it('bash removes src (the attack is real)', () => {
    expect(sandbox(linked('echo rm -rf src | xargs gtimeout 5')).changed).toBe(true);
  });

  it.each(['echo rm -rf src | xargs gtimeout 5', 'find . -exec gtimeout 5 {} \\;', 'find . -exec TIMEOUT 5 {} \\;', 'find . -exec /opt/homebrew/bin/gtimeout 5 {} +'])('%j is denied under deny rm *', (line) => {
    const decision = denyRm.evaluate('bash', line);
    expect(decision.action).toBe('deny');
    expect(decision.reason).toContain('a command name only known when it runs ("{}", filled in by');
  });
});
