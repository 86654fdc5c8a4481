import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { PermissionPolicy, type PermissionRule } from '../../src/permission/index.js';
import { own } from '../support/collect-events.js';
import { runHostileCalls, tempWorkspace } from './tool-calls-over-http.js';

// A bash line's writes were judged only against the files other programs run: under
// `deny write src/**`, an allowed `echo *` or `cp *` wrote src/a.ts all the same. Its writes
// are now judged by the user's write and edit rules, as the write tool's paths are.

const ALLOWED = ['echo *', 'printf *', 'cat *', 'cp *', 'mv *', 'ln *', 'install *', 'rsync *', 'tee *', 'sed *', 'dd *', 'awk *', 'curl *',
  'wget *', 'sort *', 'uniq *', 'truncate *', 'sponge *', 'git *', 'cd *', 'command *', 'env *', 'xargs *', 'find *', 'timeout *', 'ls *'];
const ALLOW: PermissionRule[] = ALLOWED.map((pattern) => ({ tool: 'bash', action: 'allow', pattern }));
const DENY_SRC: PermissionRule = { tool: 'write', action: 'deny', pattern: 'src/**' };
const policy = new PermissionPolicy({ rules: [...ALLOW, DENY_SRC] });

/** Lines that write into src/, however spelt. */
const ATTACKS = [
  'echo x > src/a.ts', 'echo x >> src/a.ts', 'echo x >| src/a.ts', 'echo x 1> src/a.ts', 'echo x &> src/a.ts', 'echo x &>> src/a.ts',
  'echo x >& src/a.ts', 'echo x 1<> src/a.ts', 'echo x>src/a.ts', '> src/a.ts', 'cat <<< x > src/a.ts', 'echo x > "src/a.ts"',
  "echo x > 'src'/a.ts", 'echo x > ./src/a.ts', 'echo x > src//a.ts', 'echo x > lib/../src/a.ts', 'echo x > ../ws/src/a.ts',
  'echo x > /home/u/ws/src/a.ts', 'echo x > src', 'echo ok && echo x > src/a.ts', 'echo $(echo x > src/a.ts)', "timeout 5 sh -c 'echo x > src/a.ts'",
  'cp y src/a.ts', 'cp y src/', 'cp -t src y', 'cp --target-directory=src y', 'cp -r x/src .', 'mv y src/', 'mv src/a.ts out/',
  'ln -s y src/a.ts', 'ln -s src lnk', 'ln -s ../../src lnk', 'cp -al src bak', 'install -m 644 y src/a.ts', 'rsync -a y/ src/', 'tee src/a.ts', 'echo x | tee -a out.log src/a.ts',
  'command tee src/a.ts', 'env cp y src/a.ts', 'env -i A=1 cp y src/a.ts', "sed -i 's/a/b/' src/a.ts", "sed --in-place=.bak 's/a/b/' src/a.ts",
  "sed -n 's/a/b/w src/a.ts' y", 'dd if=y of=src/a.ts', 'awk \'{ print > "src/a.ts" }\' y', 'curl -o src/a.ts https://example.com/a',
  "awk -v f=src/a.ts '{ print > f }' y", 'truncate -s0 src/a.ts', 'echo x | sponge src/a.ts', 'uniq y src/a.ts',
  'uniq -f 1 y src/a.ts', 'rsync -a evil/ .', 'curl -OJ https://example.com/x', 'wget -r -nH --cut-dirs=1 https://example.com/x/',
  'curl -sSLo src/a.ts https://example.com/a', 'curl --output=src/a.ts https://example.com/a', 'curl -O --output-dir src https://example.com/a.ts',
  'wget -O src/a.ts https://example.com/a', 'wget -P src https://example.com/a.ts', 'sort -o src/a.ts y', 'sort --output=src/a.ts y',
  'git diff --output=src/a.ts', 'git log -p --outp=src/a.ts', 'git format-patch -o src HEAD~1',
  // Known only when the line runs, or after a change of folder: read as shapes.
  'echo x > $F', 'echo x > "$F"', 'echo x > src/$x', 'echo x > out/$x', 'echo x > ${D}/a.ts', 'echo x > $(pick)', 'echo x > ~/ws/src/a.ts',
  'echo x > {src,lib}/a.ts', 'echo x > sr?/a.ts', 'echo x > s*/a.ts', 'echo src/a.ts | xargs cp y', 'find . -name y -exec cp y {} \\;',
  'cd src && echo x > a.ts', 'cd src; cp ../y a.ts', 'cd $D && echo x > a.ts', 'git -C src diff --output=a.ts', 'env -C src cp y a.ts',
];

/** Lines that write elsewhere, or only read src/, which keep running unasked. */
const ORDINARY = [
  'echo hi > out.txt', 'echo x 2>/dev/null', 'echo x > /dev/null', 'ls 2>&1', 'cat src/a.ts', 'cat src/a.ts > out.txt', 'cp src/a.ts out/',
  'cp src/a.ts backup.ts', 'sort src/a.ts', "sed 's/a/b/' src/a.ts", "sed -n '1p' src/a.ts", 'git diff src/a.ts', 'git log -- src', 'tee out.log',
  'curl https://example.com/src/a.ts', 'curl -o out.html https://example.com/src/a.ts', 'echo x > srcs/a.ts', 'echo x > lib/src/a.ts',
  'echo x > out/*.log', 'echo src/a.ts', "awk '$1 > 5' src/a.ts", 'uniq src/a.ts', 'echo "> src/a.ts"', 'git commit -m "write src/a.ts"', 'cp -r x/lib .', 'wget https://example.com/a.txt', 'wget -qO- https://example.com',
];

describe('a bash line that writes where the user denies writing', () => {
  it.each(ATTACKS)('%j is denied, whatever the bash rules allow', (line) => {
    const decision = policy.evaluate('bash', line);
    expect(decision.action).toBe('deny');
    expect(decision.rule).toBe(DENY_SRC);
    expect(decision.reason).toMatch(/^denied: the command (writes|has) .*the write rule \{tool: "write", action: deny, pattern: "src\/\*\*\"} denies/);
  });

  it.each(ORDINARY)('%j stays allowed', (line) => {
    expect(policy.evaluate('bash', line).action).toBe('allow');
  });

  it('names the path as written, where it was judged, and the rule', () => {
    expect(policy.evaluate('bash', 'cp y /home/u/ws/src/a.ts').reason).toBe(
      'denied: the command writes "/home/u/ws/src/a.ts" (judged as "src/a.ts"), and the write rule {tool: "write", action: deny, pattern: "src/**"} denies that path',
    );
    expect(policy.evaluate('bash', 'cd ../lib && echo x > a.ts').reason).toBe(
      'denied: the command writes "a.ts", which may be any path fitting "*/a.ts" when it runs, and the write rule {tool: "write", action: deny, pattern: "src/**"} denies that path',
    );
  });

  it('asks under an ask rule for edit, and the strictest rule wins', () => {
    const asks = new PermissionPolicy({ rules: [...ALLOW, { tool: 'edit', action: 'ask', pattern: 'src/**' }] });
    expect(asks.evaluate('bash', "sed -i 's/a/b/' src/a.ts")).toMatchObject({
      action: 'ask',
      reason: 'approval required: the command writes "src/a.ts", and the edit rule {tool: "edit", action: ask, pattern: "src/**"} asks about that path',
    });
    expect(asks.evaluate('bash', 'echo hi > out.txt').action).toBe('allow');
    const both = new PermissionPolicy({ rules: [...ALLOW, { tool: 'edit', action: 'ask', pattern: 'src/**' }, { tool: 'write', action: 'deny', pattern: 'src/secret/**' }] });
    expect(both.evaluate('bash', 'echo x > src/a.ts; echo y > src/secret/k').action).toBe('deny');
    // A bash deny stays a deny: a write's ask never loosens it.
    const bashDeny = new PermissionPolicy({ rules: [...ALLOW, { tool: 'bash', action: 'deny', pattern: 'echo *' }, { tool: 'edit', action: 'ask', pattern: 'src/**' }] });
    expect(bashDeny.evaluate('bash', 'echo x > src/a.ts').action).toBe('deny');
  });

  it('follows the write rules\' priorities for a path the line shows, and rules for every tool', () => {
    const rules: PermissionRule[] = [...ALLOW, { tool: 'write', action: 'deny' }, { tool: 'write', action: 'allow', pattern: 'out/**', priority: 1 }];
    const scoped = new PermissionPolicy({ rules });
    expect(scoped.evaluate('bash', 'echo x > out/a.txt').action).toBe('allow');
    expect(scoped.evaluate('bash', 'echo x > a.txt').action).toBe('deny');
    const everyTool = new PermissionPolicy({ rules: [...ALLOW, { tool: '*', action: 'deny', pattern: 'secrets/**' }] });
    expect(everyTool.evaluate('bash', 'cp key secrets/').action).toBe('deny');
  });

  it('reads a run-time part as any text from there on, a glob only within its folder', () => {
    // bash itself allowed outright: under an allow pattern a run-time target asks already (it may be a file other programs run).
    const pem = new PermissionPolicy({ rules: [{ tool: 'bash', action: 'allow' }, { tool: 'write', action: 'deny', pattern: '**/*.pem' }] });
    for (const line of ['echo x > a.pem', 'echo x > out/$x.pem', 'echo x > out/*.pem', 'echo x > $F', 'cp -r keys out/']) expect(pem.evaluate('bash', line).action).toBe('deny');
    for (const line of ['echo x > out/$x.log', 'echo x > a.pem.txt', 'cp key.txt out/']) expect(pem.evaluate('bash', line).action).toBe('allow');
  });

  it('leaves a line unreadable for another reason to the bash rules (a bash deny rule with a pattern denies it)', () => {
    const python = "python3 -c 'open(\"src/a.ts\", \"w\")'";
    expect(new PermissionPolicy({ rules: [{ tool: 'bash', action: 'allow' }, DENY_SRC] }).evaluate('bash', python).action).toBe('allow');
    expect(new PermissionPolicy({ rules: [{ tool: 'bash', action: 'allow' }, { tool: 'bash', action: 'deny', pattern: 'rm *' }, DENY_SRC] }).evaluate('bash', python).action).toBe('deny');
    expect(new PermissionPolicy({ rules: [{ tool: 'bash', action: 'allow' }, DENY_SRC] }).evaluate('bash', 'sudo -n tee out/x').action).toBe('allow');
  });

  it('holds through delegation: a parent\'s write deny denies the child\'s bash write', () => {
    const child = new PermissionPolicy({ rules: [DENY_SRC] }).child([{ tool: 'bash', action: 'allow' }]);
    expect(child.evaluate('bash', 'echo x > src/a.ts').action).toBe('deny');
  });

  it('leaves lines alone without a user rule that denies or asks about writing (the defaults\' asks do not count)', () => {
    const plain = new PermissionPolicy({ rules: [{ tool: 'bash', action: 'allow' }, { tool: 'write', action: 'allow', pattern: 'src/**' }] });
    for (const line of ['echo x > src/a.ts', 'echo x > $F', 'echo x > .env', 'tar -xf a.tar']) expect(plain.evaluate('bash', line).action).toBe('allow');
  });
});

let cleanup: (() => Promise<void>) | undefined;
afterEach(async () => {
  await cleanup?.();
  cleanup = undefined;
});

describe('in a real run', () => {
  it('refuses the write before anything runs, tells the model why, and the file is never written', async () => {
    const ws = await tempWorkspace('rxharness-bash-write-rules-');
    cleanup = ws.cleanup;
    await mkdir(join(ws.dir, 'src'));
    const calls = [{ name: 'bash', arguments: { command: 'echo pwned | tee src/a.ts' } }, { name: 'bash', arguments: { command: 'echo fine > out.txt' } }];
    const events = await runHostileCalls(ws.dir, calls, { permissionRules: [...ALLOW, DENY_SRC] });
    const ends = own(events, 'ToolCallEnd');
    expect(ends.map((e) => e.error)).toEqual([
      'Permission denied: denied: the command writes "src/a.ts", and the write rule {tool: "write", action: deny, pattern: "src/**"} denies that path',
      undefined,
    ]);
    expect(existsSync(join(ws.dir, 'src', 'a.ts'))).toBe(false);
    expect(existsSync(join(ws.dir, 'out.txt'))).toBe(true);
  });
});
