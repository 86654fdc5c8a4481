import { describe, expect, it } from 'vitest';
import { fsErrorMessage } from '../../src/tools/fs-error-message.js';
import { HeadTailBuffer } from '../../src/tools/head-tail-buffer.js';
import { looksBinary } from '../../src/tools/looks-binary.js';
import { relativeGlobProblem } from '../../src/tools/relative-glob.js';
import { toolError } from '../../src/tools/tool-error.js';

describe('HeadTailBuffer', () => {
  it('keeps everything while it fits', () => {
    const buffer = new HeadTailBuffer(5, 5);
    buffer.append('0123');
    buffer.append('456789');
    expect(buffer.toString()).toBe('0123456789');
    expect(buffer.omitted).toBe(0);
  });

  it('keeps head and tail across many chunks and counts the middle', () => {
    const buffer = new HeadTailBuffer(3, 4);
    for (const chunk of ['ab', 'cdef', 'ghij', 'klmn']) buffer.append(chunk);
    expect(buffer.omitted).toBe(7);
    expect(buffer.toString()).toBe('abc\n... [7 characters omitted] ...\nklmn');
  });
});

describe('small tool helpers', () => {
  it('detects binary bytes by NUL only within the sniffed prefix', () => {
    expect(looksBinary(Buffer.from('plain text\n'))).toBe(false);
    expect(looksBinary(Buffer.from([0x41, 0x00]))).toBe(true);
    expect(looksBinary(Buffer.concat([Buffer.alloc(9000, 0x41), Buffer.from([0])]))).toBe(false);
  });

  it('turns file-system errors into sentences naming the path', () => {
    const error = (code: string): Error => Object.assign(new Error(code), { code });
    expect(fsErrorMessage(error('ENOENT'), 'a.ts')).toBe('File not found: a.ts');
    expect(fsErrorMessage(error('EACCES'), 'a.ts')).toBe('Permission denied: a.ts');
    expect(fsErrorMessage(error('EIO'), 'a.ts')).toBe('Cannot access a.ts: EIO');
  });

  it('accepts relative globs and refuses absolute or climbing ones', () => {
    expect(relativeGlobProblem('src/**/*.ts', 'pattern')).toBeUndefined();
    expect(relativeGlobProblem('a..b/*', 'pattern')).toBeUndefined();
    expect(relativeGlobProblem('src/../../*', 'include')).toMatch(/^include must not contain "\.\."/);
    expect(relativeGlobProblem('/etc/*', 'pattern')).toMatch(/^pattern must be relative/);
  });

  it('builds error results the model reads', () => {
    expect(toolError('boom')).toEqual({ text: 'ERROR: boom', error: 'boom' });
  });
});
