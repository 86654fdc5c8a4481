import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { FileOutcomeCache, fromTheSystem } from '../../src/subagent/skills/file-outcome-cache.js';
import { readBoundedFile } from '../../src/subagent/read-bounded-file.js';
import { DefinitionError } from '../../src/subagent/definition-error.js';

// A `serve` that runs out of file descriptors for a moment gets EMFILE reading a SKILL.md. Kept
// like what the file says, that error would leave the skill unloaded until the file changed,
// for the life of the process. Only errors about the file's content are kept.

let dir: string;
let file: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'rxharness-passing-errors-'));
  file = join(dir, 'SKILL.md');
  await writeFile(file, 'the text');
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(Date.now() + 60_000); // the file has settled (see SETTLED_MS)
});
afterEach(async () => {
  vi.useRealTimers();
  await rm(dir, { recursive: true, force: true });
});

const errno = (code: string): Error => Object.assign(new Error(`${code}: the system refused`), { code });
const weigh = (s: string): number => s.length;

/** A load that throws `first` at its first call, then reads the file. */
function failingOnce(first: Error): () => string {
  let calls = 0;
  return () => {
    calls += 1;
    if (calls === 1) throw first;
    return readBoundedFile(file, { maxBytes: 1024, what: 'a skill' });
  };
}

describe('errors a file outcome cache keeps', () => {
  for (const code of ['EMFILE', 'ENFILE', 'EIO', 'EAGAIN']) {
    it(`does not keep ${code}: the next call reads the unchanged file again`, () => {
      const cache = new FileOutcomeCache<string>({ entries: 10, chars: 1000 });
      const load = failingOnce(errno(code));
      expect(() => cache.get('k', file, load, weigh)).toThrow(code);
      expect(cache.size).toBe(0);
      expect(cache.get('k', file, load, weigh)).toBe('the text');
      expect(cache.loads).toBe(2);
      // Now kept: the value is.
      expect(cache.get('k', file, load, weigh)).toBe('the text');
      expect(cache.loads).toBe(2);
    });
  }

  it('does not keep a system error wrapped with a message of its own (its `cause` has the code)', () => {
    const cache = new FileOutcomeCache<string>({ entries: 10, chars: 1000 });
    const load = failingOnce(new Error(`${file}: EMFILE: too many open files`, { cause: errno('EMFILE') }));
    expect(() => cache.get('k', file, load, weigh)).toThrow('EMFILE');
    expect(cache.get('k', file, load, weigh)).toBe('the text');
    expect(cache.loads).toBe(2);
  });

  it('does not keep the error of a real failed open (ENOTDIR from the system)', () => {
    const cache = new FileOutcomeCache<string>({ entries: 10, chars: 1000 });
    let calls = 0;
    const load = (): string => {
      calls += 1;
      // The first read goes through the file as if it were a folder: the system refuses it.
      const path = calls === 1 ? join(file, 'inner') : file;
      return readBoundedFile(path, { maxBytes: 1024, what: 'a skill' });
    };
    expect(() => cache.get('k', file, load, weigh)).toThrow(/ENOTDIR/);
    expect(cache.get('k', file, load, weigh)).toBe('the text');
    expect(calls).toBe(2);
  });

  it('keeps an error about the content: thrown again without reading, until the file changes', () => {
    const cache = new FileOutcomeCache<string>({ entries: 10, chars: 1000 });
    let calls = 0;
    const load = (): string => {
      calls += 1;
      throw new Error(`${file}: the front matter is not YAML`);
    };
    expect(() => cache.get('k', file, load, weigh)).toThrow('not YAML');
    expect(() => cache.get('k', file, load, weigh)).toThrow('not YAML');
    expect(calls).toBe(1);
    expect(cache.size).toBe(1);
  });

  it('keeps a DefinitionError (bad front matter): its code INVALID_DEFINITION is ours, no errno', () => {
    const cache = new FileOutcomeCache<string>({ entries: 10, chars: 1000 });
    let calls = 0;
    const load = (): string => {
      calls += 1;
      throw new DefinitionError(file, 'invalid YAML in front matter at line 4');
    };
    expect(() => cache.get('k', file, load, weigh)).toThrow('invalid YAML');
    expect(() => cache.get('k', file, load, weigh)).toThrow('invalid YAML');
    expect(calls).toBe(1);
    expect(cache.size).toBe(1);
  });

  it('takes the caller’s own rule for which errors to keep', () => {
    const cache = new FileOutcomeCache<string>({ entries: 10, chars: 1000 }, () => false);
    let calls = 0;
    const load = (): string => {
      calls += 1;
      throw new Error('bad front matter');
    };
    expect(() => cache.get('k', file, load, weigh)).toThrow('bad front matter');
    expect(() => cache.get('k', file, load, weigh)).toThrow('bad front matter');
    expect(calls).toBe(2);
  });
});

describe('fromTheSystem', () => {
  it('finds an errno code on the error or down its cause chain, and stops on a chain that loops', () => {
    expect(fromTheSystem(errno('EIO'))).toBe(true);
    expect(fromTheSystem(new Error('a', { cause: new Error('b', { cause: errno('EAGAIN') }) }))).toBe(true);
    expect(fromTheSystem(new Error('is 70000 bytes, more than the 65536 a skill may have'))).toBe(false);
    expect(fromTheSystem('a string')).toBe(false);
    // Codes that are not errno names: ours (with an `_`), Node's own (`ERR_...`).
    expect(fromTheSystem(new DefinitionError('SKILL.md', 'bad YAML'))).toBe(false);
    expect(fromTheSystem(new Error('x', { cause: new DefinitionError('SKILL.md', 'bad YAML') }))).toBe(false);
    expect(fromTheSystem(Object.assign(new Error('x'), { code: 'ERR_INVALID_ARG_TYPE' }))).toBe(false);
    const looping: Error & { cause?: unknown } = new Error('loop');
    looping.cause = looping;
    expect(fromTheSystem(looping)).toBe(false);
  });
});
