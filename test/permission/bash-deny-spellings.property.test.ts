import { spawnSync } from 'node:child_process';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { PermissionPolicy, type PermissionRule } from '../../src/permission/index.js';

// The family of spellings a bash deny rule is claimed to see through (docs/permissions.md,
// "What a bash rule can and cannot guarantee"): an `rm` call spelt with any binary path,
// quoting, backslashes, ANSI-C quotes or line continuations in its name, assignments or
// redirections in front, wrapped (any depth) in sudo/env/nice/timeout/xargs-style wrappers,
// `sh -c`/`bash -c`/`eval` strings, `$(...)`, backticks, `<(...)`, subshells, groups,
// if/while/for bodies or `!`, placed anywhere among other commands joined by `;` `&&` `||`
// `|` `|&` `&` or line breaks, with any whitespace around.

const rules: PermissionRule[] = [
  { tool: 'bash', action: 'allow' }, // a trusted sandbox...
  { tool: 'bash', action: 'deny', pattern: 'rm *' }, // ...that never runs rm
];

/** Single-quotes text for the shell, as a careful script writer would. */
const sq = (text: string): string => `'${text.replaceAll("'", `'\\''`)}'`;

const binary = fc.constantFrom(
  'rm', '/bin/rm', '/usr/bin/rm', '/usr/local/bin/../bin/rm', '"rm"', "'rm'", "r''m", '"r"m', '\\rm', 'r\\m', '"/bin/rm"',
  "$'rm'", "$'\\x72m'", "$'\\162\\155'", 'r\\\nm',
);
const argument = fc.constantFrom('x', '-rf', '-f', '/', 'build/*', '"a b"', "'*.o'", '--', '~/junk', '$HOME/x', '"$(pwd)"', '2>/dev/null');
const space = fc.constantFrom(' ', '  ', '\t', ' \t ');
const prefix = fc.constantFrom('', 'LANG=C ', 'A=1 B="x y" ', '2>/dev/null ', '>out.txt ');

const rmCall = fc
  .tuple(prefix, binary, fc.array(argument, { minLength: 1, maxLength: 3 }), space)
  .map(([before, name, args, gap]) => `${before}${[name, ...args].join(gap)}`);

/** A wrapper, and whether what it makes is still a simple command (a prefix like `sudo` needs one). */
type Wrap = { readonly simple: boolean; readonly wrap: (command: string) => string };
const simple = (wrap: Wrap['wrap']): Wrap => ({ simple: true, wrap });
const compound = (wrap: Wrap['wrap']): Wrap => ({ simple: false, wrap });
/** `$((` would start arithmetic, which runs nothing: a subshell inside `$(` needs a space. */
const inner = (command: string): string => (command.startsWith('(') ? ` ${command}` : command);

const prefixes = ['sudo', 'sudo -u root', 'env', 'env -i A=1', 'command', 'exec', 'nohup', 'nice -n 5', 'timeout 5', 'time', 'xargs', 'setsid', 'stdbuf -o0', 'doas'];
const wrappers: Wrap[] = [
  ...prefixes.map((w) => simple((c) => `${w} ${c}`)),
  ...['bash -c', 'sh -c', '/bin/sh -c', 'dash -c', 'zsh -c', 'bash -lc', 'bash -e -c'].map((s) => simple((c) => `${s} ${sq(c)}`)),
  simple((c) => `bash -c "${c.replaceAll('\\', '\\\\').replaceAll('"', '\\"').replaceAll('$', '\\$').replaceAll('`', '\\`')}"`),
  simple((c) => `eval ${sq(c)}`),
  simple((c) => `echo $(${inner(c)})`),
  simple((c) => `echo "$(${inner(c)})"`),
  simple((c) => `x=$(${inner(c)})`),
  simple((c) => `cat <(${inner(c)})`),
  simple((c) => (c.includes('`') ? `echo $(${inner(c)})` : `echo \`${c}\``)),
  compound((c) => `(${c})`),
  compound((c) => `{ ${c}; }`),
  compound((c) => `if true; then ${c}; fi`),
  compound((c) => `while true; do ${c}; done`),
  compound((c) => `for i in 1 2; do ${c}; done`),
  compound((c) => `! ${c}`),
  compound((c) => `true && ${c}`),
  compound((c) => `false || ${c}`),
];
const wrapped = fc
  .tuple(rmCall, fc.array(fc.integer({ min: 0, max: wrappers.length - 1 }), { maxLength: 3 }))
  .map(([call, chosen]) => {
    let command = call;
    let isSimple = true;
    for (const index of chosen) {
      const { wrap, simple: makesSimple } = wrappers[index]!;
      // A prefix like sudo cannot take `if ...; fi`: hand it a shell running it instead.
      const prefixOfCompound = !isSimple && prefixes.some((p) => wrap('@').startsWith(`${p} @`));
      command = wrap(prefixOfCompound ? `bash -c ${sq(command)}` : command);
      isSimple = makesSimple;
    }
    return command;
  });

const other = fc.constantFrom('echo a', 'ls -la', 'git status', 'cat "x y"', 'echo "a;b|c"', 'true', ':', "printf '%s\\n' hi", 'echo rm x');
const separator = fc.constantFrom(';', ' ; ', '&&', ' || ', '|', ' |& ', ' & ', '\n', ' ;\n', '\n\n');

/** Commands joined by separators, with whitespace in front and maybe a comment at the end. */
const joined = (commands: fc.Arbitrary<string[]>) =>
  fc
    .tuple(commands, fc.array(separator, { minLength: 8, maxLength: 8 }), fc.constantFrom('', ' ', '\n  ', '\t'), fc.constantFrom('', ' # done'))
    .map(([parts, seps, lead, comment]) => lead + parts.map((p, i) => (i === 0 ? p : `${seps[i - 1]}${p}`)).join('') + comment);

const lineWithRm = joined(
  fc
    .tuple(fc.array(other, { maxLength: 3 }), wrapped, fc.array(other, { maxLength: 3 }))
    .map(([before, rm, after]) => [...before, rm, ...after]),
);

const settings = { seed: 20_240_613, numRuns: 2_000 };

describe('a deny on `rm *` over the spellings of an rm call', () => {
  it('denies every line of the family, for the agent and for every child below it', () => {
    const policy = new PermissionPolicy({ rules });
    const child = policy.child([{ tool: 'bash', action: 'allow', priority: 100 }]);
    fc.assert(
      fc.property(lineWithRm, (line) => {
        expect(policy.evaluate('bash', line).action, JSON.stringify(line)).toBe('deny');
        expect(child.evaluate('bash', line).action, JSON.stringify(line)).toBe('deny');
      }),
      settings,
    );
  });

  it('is a family of real bash: a sample of its lines passes `bash -n` (parsed, never run)', () => {
    for (const line of fc.sample(lineWithRm, { seed: settings.seed, numRuns: 150 })) {
      const check = spawnSync('bash', ['-n', '-c', line], { encoding: 'utf8' });
      expect(check.status, `${JSON.stringify(line)}: ${check.stderr}`).toBe(0);
    }
  });

  it('never lets an allow on `git *` allow a line that also runs rm', () => {
    const policy = new PermissionPolicy({ rules: [{ tool: 'bash', action: 'allow', pattern: 'git *' }] });
    fc.assert(
      fc.property(lineWithRm, fc.constantFrom('git status', 'git log --oneline'), (line, git) => {
        expect(policy.evaluate('bash', `${git}; ${line}`).action, JSON.stringify(line)).not.toBe('allow');
      }),
      settings,
    );
  });

  it('allows the lines of the family that do not run rm (no false alarm on data)', () => {
    const policy = new PermissionPolicy({ rules });
    fc.assert(
      fc.property(joined(fc.array(other, { minLength: 1, maxLength: 5 })), (line) => {
        expect(policy.evaluate('bash', line).action, JSON.stringify(line)).toBe('allow');
      }),
      settings,
    );
  });
});
