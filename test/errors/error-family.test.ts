import { describe, expect, it } from 'vitest';
import {
  AbortError,
  BufferOverflowError,
  DefinitionError,
  EngineClosedError,
  InvalidPermissionRuleError,
  InvalidWorkspaceError,
  ModelError,
  NdjsonParseError,
  RxHarnessError,
  SessionBusyError,
  UnknownAgentError,
  UnknownRunError,
  UnsafeLinkError,
  UnsealedSessionError,
  NotRegularFileError,
  SessionFileTooLargeError,
  DeletedConversationError,
} from '../../src/index.js';
import { errorMessage } from '../../src/errors/error-message.js';

const samples: [RxHarnessError, string, string][] = [
  [new AbortError(), 'AbortError', 'ABORTED'],
  [new SessionBusyError('s', 'r'), 'SessionBusyError', 'SESSION_BUSY'],
  [new ModelError('m'), 'ModelError', 'MODEL_ERROR'],
  [new DefinitionError('f', 'why'), 'DefinitionError', 'INVALID_DEFINITION'],
  [new InvalidPermissionRuleError('w', 0, 'p'), 'InvalidPermissionRuleError', 'INVALID_PERMISSION_RULE'],
  [new UnsafeLinkError('f', 'l', 't', '/w', 'the workspace', true), 'UnsafeLinkError', 'UNSAFE_LINK'],
  [new NdjsonParseError(1, 'x', 'bad'), 'NdjsonParseError', 'NDJSON_PARSE'],
  [new BufferOverflowError(1), 'BufferOverflowError', 'BUFFER_OVERFLOW'],
  [new UnknownAgentError('a', []), 'UnknownAgentError', 'UNKNOWN_AGENT'],
  [new EngineClosedError(), 'EngineClosedError', 'ENGINE_CLOSED'],
  [new InvalidWorkspaceError('/x', 'does not exist'), 'InvalidWorkspaceError', 'INVALID_WORKSPACE'],
  [new UnknownRunError('r'), 'UnknownRunError', 'UNKNOWN_RUN'],
  [new UnsealedSessionError('s', '/w/.rxharness/sessions/s.jsonl', [1]), 'UnsealedSessionError', 'SESSION_NOT_SEALED'],
  [new NotRegularFileError('/w/.rxharness/sessions/s.jsonl', 'FIFO (named pipe)'), 'NotRegularFileError', 'NOT_REGULAR_FILE'],
  [new SessionFileTooLargeError('/w/.rxharness/sessions/s.jsonl', 600, 512), 'SessionFileTooLargeError', 'SESSION_FILE_TOO_LARGE'],
  [new DeletedConversationError('t1', 'notes'), 'DeletedConversationError', 'DELETED_CONVERSATION'],
];

describe('the error family', () => {
  it.each(samples.map(([e, name, code]) => [name, e, code] as const))('%s: a stable name and code, an Error, an RxHarnessError', (name, error, code) => {
    expect(error).toBeInstanceOf(Error);
    expect(error.name).toBe(name);
    expect(error.code).toBe(code);
    expect(RxHarnessError.isInstance(error)).toBe(true);
  });

  it('isInstance tells the classes apart, and answers false for look-alikes and non-errors', () => {
    for (const [error] of samples) {
      for (const [other] of samples) {
        const cls = other.constructor as typeof RxHarnessError;
        expect(cls.isInstance(error)).toBe(cls === error.constructor);
      }
    }
    const lookalike = Object.assign(new Error('x'), { name: 'SessionBusyError', code: 'SESSION_BUSY' });
    expect(SessionBusyError.isInstance(lookalike)).toBe(false);
    for (const value of [null, undefined, 'SessionBusyError', 42, {}]) expect(RxHarnessError.isInstance(value)).toBe(false);
  });

  it('isInstance works across copies of the library: the marker is a Symbol.for, shared by every realm', async () => {
    const { runInNewContext } = await import('node:vm');
    // An error from "another copy": a plain object carrying the same registered symbols.
    const foreign = runInNewContext(`const e = new Error('busy'); e[Symbol.for('rxharness.error.SESSION_BUSY')] = true; e[Symbol.for('rxharness.error.RXHARNESS_ERROR')] = true; e`) as Error;
    expect(foreign instanceof SessionBusyError).toBe(false);
    expect(SessionBusyError.isInstance(foreign)).toBe(true);
    expect(RxHarnessError.isInstance(foreign)).toBe(true);
    expect(ModelError.isInstance(foreign)).toBe(false);
  });

  it('errorMessage reads anything thrown', () => {
    expect(errorMessage(new ModelError('down'))).toBe('down');
    expect(errorMessage('plain')).toBe('plain');
    expect(errorMessage({ message: 'from elsewhere' })).toBe('from elsewhere');
    expect(errorMessage({ code: 7 })).toBe('{"code":7}');
    const cycle: Record<string, unknown> = {};
    cycle.self = cycle;
    expect(errorMessage(cycle)).toBe('[object Object]');
    expect(errorMessage(undefined)).toBe('undefined');
  });
});
