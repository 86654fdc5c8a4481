import { describe, expect, it } from 'vitest';
import { closest } from '../../src/errors/did-you-mean.js';

describe('closest', () => {
  it('finds a slip of one or two letters in a long word', () => {
    expect(closest('disalowedTools', ['tools', 'disallowedTools'])).toBe('disallowedTools');
    expect(closest('permisionRule', ['permissionRules'])).toBe('permissionRules');
  });

  it('finds the same letters in another case or with -/_', () => {
    expect(closest('Tools', ['tools'])).toBe('tools');
    expect(closest('max-turns', ['maxSteps', 'maxTurns'])).toBe('maxTurns');
    expect(closest('MAX_TURNS', ['max_turns', 'maxTurns'])).toBe('max_turns');
  });

  it('allows one edit for a short candidate, two for a longer one', () => {
    expect(closest('hiden', ['hidden'])).toBe('hidden');
    expect(closest('tols', ['tools'])).toBe('tools');
    expect(closest('tls', ['tools'])).toBeUndefined();
    expect(closest('mdel', ['model'])).toBe('model');
  });

  it('prefers the nearest candidate and is silent when none is close', () => {
    expect(closest('maxStep', ['maxTurns', 'maxSteps'])).toBe('maxSteps');
    expect(closest('skills', ['tools', 'hidden'])).toBeUndefined();
  });

  it('honours an explicit maxDistance', () => {
    expect(closest('disalowdTools', ['disallowedTools'], 1)).toBeUndefined();
    expect(closest('--verbos', ['--verbose', '--version'], 1)).toBe('--verbose');
  });
});
