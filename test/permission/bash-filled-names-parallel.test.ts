import { describe, expect, it } from 'vitest';
import { PermissionPolicy } from '../../src/permission/index.js';

// GNU parallel, sem, rush and entr fill in their command's words from what they read, as
// xargs does: a command name they fill in is one no rule sees, so the line is unreadable under
// a bash deny rule, by the same rule as xargs's (`filler-runs`). Each parallel and entr line of
// FILLED ran `rm y` under GNU parallel 20221122 and entr 5.3 (`-n`, no terminal) by hand; neither
// is installed where the tests run, so they are not run here, and rush (not packaged) is read as
// parallel is. parallel joins its words into a line a shell reads, and runs what it reads when
// it has no command.

const policy = new PermissionPolicy({ rules: [{ tool: 'bash', action: 'allow', pattern: '*' }, { tool: 'bash', action: 'deny', pattern: 'rm *' }] });

const FILLED = [
  'echo rm | parallel env {} y',
  'echo rm | parallel nice {} y',
  'echo rm | parallel -j4 env {} y',
  'parallel {.} y ::: rm.x',
  'parallel {/.} y ::: a/rm.x',
  'parallel --plus {+/}rm y ::: x',
  'echo rm | parallel -I Q Q y',
  'echo rm | parallel -i Q Q y', // -i takes a value when the next word is no option
  'echo rm | parallel --er Q Q y',
  'echo rm | parallel env "{} y"', // the words are joined and read by a shell
  "echo rm | parallel 'echo a; {} y'",
  'printf "rm\\ny\\n" | parallel -N2 env',
  'echo "rm y" | parallel', // no command: each line read is one
  'echo rm | rush "{} y"',
  'echo rm y | rush env',
  'ls | entr -n /_ y',
  'ls | entr -n env /_ y',
];

/**
 * Judged as filled in doubt, though these versions put nothing there: sem (`parallel
 * --semaphore`) read no input here, and entr -s left `/_` to the shell.
 */
const IN_DOUBT = ['echo rm | sem env {} y', 'ls | entr -s "/_ y"'];

/** Options whose command cannot be known, or that run code of their own. */
const UNREADABLE = [
  'ls | parallel --frobnicate gzip',
  'ls | parallel -K gzip', // parallel's letters are case-sensitive
  'echo a | parallel echo {=uq=}',
  'parallel echo \'{=system("rm y")=}\' ::: a',
  'parallel --rpl "{x} s/a//" echo {x} ::: a',
  'ls | parallel --ssh "rm y" -S host gzip',
  'ls | parallel --limit "rm y" gzip',
  'ls | entr -Q make',
];

describe('a command name parallel, sem, rush or entr fill in', () => {
  it.each([...FILLED, ...IN_DOUBT])('%j is denied, naming what fills it in', (line) => {
    const decision = policy.evaluate('bash', line);
    expect(decision.action).toBe('deny');
    expect(decision.reason).toMatch(/command name only known when it runs \(".*", filled in by (?:parallel|sem|rush|entr)\)/);
  });

  it.each(UNREADABLE)('%j is denied: what it runs cannot be read', (line) => {
    expect(policy.evaluate('bash', line).action).toBe('deny');
  });
});

describe('ordinary uses stay allowed', () => {
  it.each([
    'ls | parallel -j4 gzip',
    'ls | parallel --bar gzip',
    'parallel -k echo ::: a b',
    "ls | parallel 'gzip {}'",
    'ls | parallel --keep-order --tag wc -l',
    'parallel -j 2 --halt now,fail=1 gzip {} ::: a b',
    'echo a | parallel -I Q echo Q',
    'ls | sem -j2 gzip',
    "ls | rush 'gzip {}'",
    'ls | entr make',
    'ls | entr -r npm test',
    // With no command xargs runs echo.
    'ls | xargs',
    'ls | xargs -n1',
  ])('%j is allowed', (line) => {
    expect(policy.evaluate('bash', line).action).toBe('allow');
  });
});
