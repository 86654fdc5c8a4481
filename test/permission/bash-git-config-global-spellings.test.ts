import { describe, expect, it } from 'vitest';
import { denySrc } from './support/bash-sandbox.js';
import { gitConfigSandbox } from './support/git-config-sandbox.js';

// git takes any unambiguous prefix of a long option (`--glob` is `--global`), and a read word
// after a key is that key's value (`--global k.v list` sets k.v to "list"). Each line below wrote
// git's global configuration under src/ in real bash (the first test) and was allowed before.
describe("git config --global's spellings and values", () => {
  const gitRun = gitConfigSandbox('rx-git-config-spellings-');
  const WRITES = [
    'HOME=src git config --glob k.v x',
    'HOME=src git config --gl k.v x',
    'XDG_CONFIG_HOME=src git config --globa k.v x',
    'HOME=src git config --global k.v get',
    'HOME=src git config --global k.v list',
    'HOME=src git config --global k.v -l',
    'HOME=src git config --global k.v --list',
    'HOME=src git config --global --add k.v list',
    'HOME=src git config --global --replace-all k.v --get',
  ];

  it('bash writes git config under src with each (the attacks are real)', () => {
    for (const line of WRITES) expect(gitRun(line), line).toBe(true);
  }, 60_000);

  it.each(WRITES)('%j is denied under deny write src/**', (line) => {
    expect(denySrc.evaluate('bash', line).action).toBe('deny');
  });

  // An option that takes a value swallows the word after it (git 2.45's `--comment --list k.v x`
  // writes k.v), so a read word there is not trusted: denied even where this git refuses the line.
  it.each(['HOME=src git config --global --comment --list k.v x', 'HOME=src git config --global -t --get k.v true'])('%j is denied: a value may hide behind an option', (line) => {
    expect(denySrc.evaluate('bash', line).action).toBe('deny');
  });

  const READS = [
    'HOME=src git config --global --get k.v',
    'HOME=src git config --get --global k.v',
    'HOME=src git config --glob --list',
    'HOME=src git config --global --show-origin -l',
    'HOME=src git config --global --type=bool --get k.v',
    'HOME=src git config --global --get-all k.v',
  ];

  it('bash writes nothing under src with each', () => {
    for (const line of READS) expect(gitRun(line), line).toBe(false);
  }, 60_000);

  it.each(READS)('%j is allowed under deny write src/**', (line) => {
    expect(denySrc.evaluate('bash', line).action).toBe('allow');
  });
});
