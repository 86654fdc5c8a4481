import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { evaluateRules, PermissionPolicy, type PermissionRule } from '../../src/permission/index.js';

// Lines that run `rm f` where the checker saw none (the permission audit): `$((` that is not
// arithmetic, `case` inside `$(...)`, bash builtins that evaluate a value as code, and
// `env -S` / `trap --` / `mapfile -C` strings. Under `deny rm *` each must be denied, and
// under `allow git *` alone none may run unasked.

const denyRm: PermissionRule[] = [{ tool: 'bash', action: 'allow' }, { tool: 'bash', action: 'deny', pattern: 'rm *' }];
const allowGit: PermissionRule[] = [{ tool: 'bash', action: 'allow', pattern: 'git *' }];

/** [what, a line that runs `rm f` in bash] */
const ATTACKS: readonly (readonly [string, string])[] = [
  ['$(( that does not close with )) is a subshell', 'echo $((rm f) )'],
  ['case inside $(...)', 'echo $(case x in x) rm f;; esac)'],
  ['case inside "$(...)"', 'echo "$(case x in x) rm f;; esac)"'],
  ['arithmetic on a variable', "x='a[$(rm f)]'; echo $((x))"],
  ['old arithmetic $[', "x='a[$(rm f)]'; echo $[x]"],
  ['(( )) on a variable', "x='a[$(rm f)]'; (( x ))"],
  ['an arithmetic for', "x='a[$(rm f)]'; for ((i=x;i<1;i++)); do :; done"],
  ['[[ -eq ]]', "x='a[$(rm f)]'; [[ x -eq 0 ]]"],
  ['let', "let 'x=a[$(rm f)]'"],
  ['${!x}', "x='a[$(rm f)]'; echo ${!x}"],
  ['${x@P}', "x='$(rm f)'; echo ${x@P}"],
  ['an array subscript', "x='a[$(rm f)]'; a=(1); echo ${a[x]}"],
  ['a substring offset', "x='a[$(rm f)]'; s=abc; echo ${s:x}"],
  ['an assignment to a subscript', "x='a[$(rm f)]'; a[x]=1"],
  ['declare -i', "declare -i y; y='a[$(rm f)]'"],
  ['declare -a of a quoted compound', "declare -a 'y=($(rm f))'"],
  ['local -a of a quoted compound', "g() { local -a 'y=($(rm f))'; }; g"],
  ['printf -v into a subscript', "printf -v 'a[$(rm f)]' x"],
  ['read into a subscript', "read 'a[$(rm f)]' <<< x"],
  ['test -v on a subscript', "test -v 'a[$(rm f)]'"],
  ['unset of a subscript', "a=(1); unset 'a[$(rm f)]'"],
  ['the $( spelt in $\'...\'', "x=$'a[\\x24(rm f)]'; echo $((x))"],
  ['the $( escaped', 'x=a[\\$\\(rm\\ f\\)]; echo $((x))'],
  ['a value read from a file', "printf 'a[$%s]' '(rm f)' > v; x=$(cat v); echo $((x))"],
  ['mapfile -C callback', "mapfile -C 'rm f;:' -c 1 arr <<< x"],
  ['readarray -C after another option', "readarray -c 1 -C 'rm f;:' arr <<< x"],
  ['env -S joined', "env -S'rm f'"],
  ['env --split-string=', "env --split-string='rm f'"],
  ['env -S after -u', "env -u X -S 'rm f'"],
  ['trap -- action', "trap -- 'rm f' EXIT"],
];

/** Ordinary lines: an evaluating context without a carried command, or the reverse. */
const ORDINARY = [
  "git commit -m 'fix $(x) later'",
  'git commit -m "release $(date +%F)"',
  'echo $((1 + 2))',
  'x=5; echo $((x * 2)); let y=x+1',
  'for i in 1 2 3; do echo $((i * 2)); done',
  'for ((i = 0; i < 3; i++)); do echo $i; done',
  'if [[ -n "$(git status --porcelain)" ]]; then echo dirty; fi',
  'for f in *.ts; do echo "$f"; done',
  'echo "${arr[@]}" ${x:-none} $(date)',
  'read -r line < f; echo "$line"',
  "echo '${!x} @P}' rm",
  'declare -a list=(a b); echo ${#list[@]}',
  'trap "echo bye" EXIT',
  'env -i A=1 git status',
];

describe('lines that run rm through text bash evaluates', () => {
  const deny = new PermissionPolicy({ rules: denyRm });
  const git = new PermissionPolicy({ rules: allowGit });

  it.each(ATTACKS)('%s: %j is denied under deny rm *, and not allowed under allow git *', (_what, line) => {
    expect(deny.evaluate('bash', line).action).toBe('deny');
    expect(evaluateRules(denyRm, 'bash', line)?.action).toBe('deny');
    expect(git.evaluate('bash', line.replace(/^echo /, 'git log ')).action).not.toBe('allow');
  });

  it('each line really runs rm f in bash (the table is honest)', () => {
    const dir = mkdtempSync(join(tmpdir(), 'rxh-code-in-data-'));
    try {
      for (const [, line] of ATTACKS) {
        writeFileSync(join(dir, 'f'), 'x');
        spawnSync('bash', ['-c', line], { cwd: dir, stdio: 'ignore', timeout: 5000 });
        expect(existsSync(join(dir, 'f')), line).toBe(false);
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it.each(ORDINARY)('%j stays readable: allowed under deny rm *', (line) => {
    expect(deny.evaluate('bash', line).action).toBe('allow');
  });

  it('says what it could not read', () => {
    expect(deny.evaluate('bash', "x='a[$(rm f)]'; echo $((x))").reason).toBe(
      'denied: the command has arithmetic ("((") and a "$(" or backtick in quotes ("x=a[$(rm f)]"), which bash may run as code, so the bash deny rules cannot check it',
    );
    expect(deny.evaluate('bash', 'echo $(case x in x) ls;; esac)').reason).toContain('a "case" inside "$(...)"');
  });

  it('a context and a carrier make any line unreadable, each alone does not (property)', () => {
    const contexts = ['echo $((v))', 'echo $[v]', '(( v ))', '[[ v -eq 1 ]]', 'let v', 'echo ${!v}', 'echo ${v@P}', 'echo ${a[v]}', 'echo ${s:v}', 'a[v]=1', "printf -v 'a[v]' x", "test -v 'a[v]'", "declare -a 'y=(v)'"];
    const carriers = ["v='$(ls)'", 'v="\\`ls\\`"', 'v=$(cat p)', 'read v < p', 'for v in *; do :; done'];
    fc.assert(
      fc.property(fc.constantFrom(...contexts), fc.constantFrom(...carriers), fc.constantFrom('; ', ' && ', '\n'), (context, carrier, join) => {
        expect(deny.evaluate('bash', `${carrier}${join}${context}`).action).toBe('deny');
        // `${v@P}` also carries: it expands the `$x$y` in v's value, a value joined at run time that `$_` hands on.
        if (context !== 'echo ${v@P}') expect(deny.evaluate('bash', `${context}${join}echo done`).action).toBe('allow');
        expect(deny.evaluate('bash', `${carrier}${join}echo done`).action).toBe('allow');
      }),
    );
  });
});

describe('an allow rule with a pattern never allows a line the checker cannot read', () => {
  it.each(["x='$(rm f)'; git log ${x@P}", 'git log <<EOF\nx\nEOF', "x='a[$(rm f)]'; git log -n $((x))"])('%j asks under allow git *', (line) => {
    expect(new PermissionPolicy({ rules: allowGit }).evaluate('bash', line)).toMatchObject({
      action: 'ask',
      reason: expect.stringContaining('so the bash allow rules cannot check it'),
    });
    expect(evaluateRules(allowGit, 'bash', line)?.action).toBe('ask');
  });

  it('while an allow without a pattern (all of bash) still allows it', () => {
    expect(new PermissionPolicy({ rules: [{ tool: 'bash', action: 'allow' }] }).evaluate('bash', "x='$(rm f)'; git log ${x@P}").action).toBe('allow');
  });
});
