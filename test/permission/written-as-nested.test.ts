import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { commandParts } from '../../src/permission/bash/command-parts.js';
import { PermissionPolicy } from '../../src/permission/index.js';

// The text rules match, and reasons quote, keeps an expansion as the line wrote it: one nested
// in another's default (`${x:-${y}}z`), whose outer braces the parser's text drops
// (`$x:-${y}z`, which reads as `$x`, then text), and a `\#` typed inside double quotes
// (`"${x/\#/y}"` replaces a `#`; `${x/#/y}` puts `y` in front).

const denyRm = new PermissionPolicy({ rules: [{ tool: 'bash', action: 'allow' }, { tool: 'bash', action: 'deny', pattern: 'rm *' }] });

describe('an expansion inside a braced one', () => {
  it('renders as written, however deep, next to bare braces and bare expansions', () => {
    expect(commandParts('echo ${x:-${y}}z').commands).toEqual(['echo ${x:-${y}}z']);
    expect(commandParts('echo ${x:-${y:-${z}}}w $x${y:-${z}}w "${x:-${y}}"z').commands).toEqual(['echo ${x:-${y:-${z}}}w $x${y:-${z}}w ${x:-${y}}z']);
    // a bare `{` opens nothing: the first `}` ends the expansion, as the parser reads it
    expect(commandParts('echo ${x:-{a}}b $${x}m').commands).toEqual(['echo ${x:-{a}}b $${x}m']);
  });

  it('is quoted so in a denial', () => {
    expect(denyRm.evaluate('bash', 'x=1; rm ${x:-${y}}z').reason).toContain('(for "rm ${x:-${y}}z")');
  });

  it('bash reads the outer braces (the rendering matters)', () => {
    const out = spawnSync('bash', ['-c', 'y=b; echo ${x:-${y}}z $x:-${y}z'], { encoding: 'utf8' }).stdout;
    expect(out).toBe('bz :-bz\n');
  });
});

describe('a typed `\\#` inside a braced expansion in double quotes', () => {
  it('renders as written, and a bare `#` as written too', () => {
    expect(commandParts('echo "${x/\\#/y}" ${x/#/y} "a ${z/\\#a/b} ${#x}"').commands).toEqual(['echo ${x/\\#/y} ${x/#/y} a ${z/\\#a/b} ${#x}']);
  });

  it('is quoted so in a denial (its backslash escaped, as a reason quotes one)', () => {
    expect(denyRm.evaluate('bash', 'x=1; rm "${x/\\#/y}"').reason).toContain('(for "rm ${x/\\\\#/y}")');
  });

  it('bash reads the two apart (the rendering matters)', () => {
    const out = spawnSync('bash', ['-c', 'x=a#b; echo "${x/\\#/-}" ${x/#/-}'], { encoding: 'utf8' }).stdout;
    expect(out).toBe('a-b -a#b\n');
  });
});
