import { describe, expect, it } from 'vitest';
import { PermissionPolicy } from '../../src/permission/index.js';
import { bashSandbox, denySrc } from './support/bash-sandbox.js';

const sandbox = bashSandbox('rx-write-bypasses-68-');
// Whether the line changed src/ (src/a changed or removed, or any other name made there), with
// TMPDIR unset and HOME somewhere that is not there, so that only the line's own settings count.
const changesSrc = (line: string): boolean =>
  sandbox(`unset TMPDIR; export HOME=/nonexistent-68; (${line}) >/dev/null 2>&1; ls -A src | grep -qvx a && echo z >> src/a`).changed;
/** Bash allowed, no write rule: the write checks are not in play. */
const noWriteRule = new PermissionPolicy({ rules: [{ tool: 'bash', action: 'allow' }] });

// A command name only known when it runs, where a wrapper, xargs or coproc runs it; and xargs behind coproc.
const RUN_TIME_NAME_BEHIND_WRAPPER = [
  'm=rm; flock /tmp/rx-68-lock $m src/a',
  'm=rm; xargs $m <<< src/a',
  'm=rm; xargs -I{} $m {} <<< src/a',
  'm=rm; coproc $m src/a; wait',
  'm=rm; coproc X { $m src/a; }; wait',
  'coproc xargs rm <<< src/a; wait',
];
// With the keyword option on, `NAME=value` after the command's name is in its environment.
const KEYWORD_OPTION = ['set -k; mktemp TMPDIR=src', 'set -o keyword; mktemp -d TMPDIR=src', 'set -k; git init -q GIT_DIR=src/g'];
// An output option in a word only known when the line runs.
const RUN_TIME_OPTION = ['o=-o; shuf $o src/a /dev/null', 'o=--output; sort $o=src/a /dev/null', 'o=-o; curl -s $o src/a file:///dev/null'];
// Programs whose writes were not read.
const WRITERS = [
  'gzip src/a', 'bzip2 src/a', 'xz src/a', 'zip -q src/z cmds', 'shuf -o src/a /dev/null', 'sqlite3 src/db "create table t(a)"',
  'git init -q --separate-git-dir=src/g w', 'HOME=src git config --global a.b c', 'export HOME=src; git config --global a.b c',
];
const ALL = [...RUN_TIME_NAME_BEHIND_WRAPPER, ...KEYWORD_OPTION, ...RUN_TIME_OPTION, ...WRITERS];

describe('lines that write under src/ in ways the write rules did not read', () => {
  it.each(ALL)('%s really changes src/', (line) => {
    expect(changesSrc(line)).toBe(true);
  });
  it.each(ALL)('%s is denied under deny write src/**', (line) => {
    expect(denySrc.evaluate('bash', line).action).toBe('deny');
  });
  it('without a write rule in play they are judged by the bash rules alone, as before', () => {
    for (const line of ALL) expect(noWriteRule.evaluate('bash', line).action, line).toBe('allow');
  });
});

describe('why each is denied', () => {
  it('a run-time name behind a wrapper whose syntax is not read may be the command, which may write any path', () => {
    expect(denySrc.evaluate('bash', 'm=rm; flock /tmp/l $m src/a').reason).toContain('a word after "flock" that may be a command name only known when it runs ("$m")');
  });
  it('coproc runs its first word, or the body after its NAME, as a command start', () => {
    expect(denySrc.evaluate('bash', 'm=rm; coproc X { $m src/a; }').reason).toContain('a command name only known when it runs ("$m")');
    expect(denySrc.evaluate('bash', 'coproc xargs rm <<< src/a').reason).toContain('writes "{}"');
  });
  it('the keyword option makes every later command write any path', () => {
    expect(denySrc.evaluate('bash', 'set -k; mktemp TMPDIR=src').reason).toContain('the "keyword" option');
  });
  it('a run-time word where an output option may stand writes any path', () => {
    expect(denySrc.evaluate('bash', 'o=-o; shuf $o src/a /dev/null').reason).toContain('may be an output option of "shuf"');
  });
  it('HOME moved before git config --global is where its file is written', () => {
    expect(denySrc.evaluate('bash', 'export HOME=src; git config --global a.b c').reason).toContain('writes "src/.gitconfig"');
  });
});

// Near misses that change nothing under src/: still allowed.
const UNCHANGED = [
  'xargs -I{} echo {} <<< src/a', 'coproc X { echo hi; }; wait', 'coproc cat < /dev/null; wait', 'set -e; mktemp', 'set -- -k; echo',
  'sort -u cmds', 'shuf -n 1 cmds', 'gzip -c src/a > a.gz', 'gzip -t cmds || true', 'zip -q out.zip src/a', 'sqlite3 :memory: "select 1"',
  'git config --global a.b c', 'HOME=src git config --global --get a.b', 'git config --global a.b c; export HOME=src', 'git init -q w',
];

describe('what writes nothing under src/ stays allowed', () => {
  it.each(UNCHANGED)('%s does not change src/', (line) => {
    expect(changesSrc(line)).toBe(false);
  });
  it.each(UNCHANGED)('%s is allowed under deny write src/**', (line) => {
    expect(denySrc.evaluate('bash', line).action).toBe('allow');
  });
});
