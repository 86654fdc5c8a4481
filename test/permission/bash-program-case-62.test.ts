import { describe, expect, it } from 'vitest';
import { denyRm, denySrc, itAllowsEach } from './support/bash-sandbox.js';

// A program is found on a disk that may ignore letter case (macOS, Windows): there `RM` runs rm
// and `MAKE` make. The checks fold program names as they fold the files programs run, so each
// spelling is judged as the program; builtins and keywords keep their case, as bash does.

describe('program names in any letter case', () => {
  it.each(['RM -rf x', '/bin/RM x', 'Rm x', 'SUDO rm x', 'XARGS rm', 'FIND src -delete', 'FIND src -exec rm {} ;'])('%j is denied under deny rm *', (line) => {
    expect(denyRm.evaluate('bash', line).action).toBe('deny');
  });

  it.each([
    ['echo x > Makefile; MAKE', 'make on the same line'],
    ["TAR -I 'rm x' -cf a.tar d", 'an option of tar that runs a command'],
    ['SED -ee f', 'a sed script running commands'],
    ['Find src -name $x', 'a word only known when it runs'],
  ])('%j is unreadable under deny rm *', (line, reason) => {
    expect(denyRm.evaluate('bash', line).reason).toContain(reason);
  });

  it.each(['FIND src -delete', 'SED -i s/a/b/ src/a', 'Cp x src/'])('%j is denied under deny write src/**', (line) => {
    expect(denySrc.evaluate('bash', line).action).toBe('deny');
  });

  itAllowsEach(['LS -la', 'ECHO rm x', 'Grep rm f']);
});
