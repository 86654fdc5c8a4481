import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import * as api from '../../src/index.js';

const ENTRY = readFileSync(new URL('../../src/index.ts', import.meta.url), 'utf8');

/**
 * The reviewed public surface: every value the package exports. A change here is a change
 * of the public API: review it (docs, semver), then update the list.
 */
const VALUES = [
  'AbortError', 'BufferOverflowError', 'DefinitionError', 'DeletedConversationError', 'EngineClosedError',
  'FileSessionStore', 'HarnessEngine', 'HarnessWorker', 'InvalidPermissionRuleError', 'InvalidWorkspaceError', 'MemorySessionStore',
  'MemoryEventLog', 'ModelError', 'NdjsonParseError', 'NotRegularFileError', 'OpenAIChatModel', 'PUBLIC_TOOL_NAMES', 'PermissionPolicy', 'ReActAgent',
  'RxHarnessError', 'ScriptedModel', 'SessionBusyError', 'SessionFileTooLargeError', 'UnknownAgentError', 'UnknownRunError', 'UnsafeLinkError', 'UnsealedSessionError', 'createBashTool',
  'createBuiltinTools', 'createDemoModel', 'createEditTool', 'createGlobTool', 'createGrepTool', 'createListTool',
  'createReadTool', 'createTodoTool', 'createWriteTool', 'defineAgent', 'defineTool', 'eventText', 'formatAgentMarkdown', 'isAgentEvent',
  'isRunEnd', 'isTaskWrap', 'liveTree', 'ofEventType', 'parseAgentMarkdown', 'parseNdjson',
  'parsePermissionRules', 'redisBackend', 'RedisBackendError', 'RemoteTaskError', 'runsHandler', 'sseHandler', 'streamSse', 'terminalApproval', 'terminalRunEnd', 'toAsyncIterable',
  'toNdjson', 'toUiItem', 'toUiItems', 'unwrapEvent', 'unwrapTaskEvents', 'writeNdjson',
];

/** Names the entry exports as types only (`export type { ... }` and `type X` inside an export list). */
function typeNames(source: string): string[] {
  const names = new Set<string>();
  for (const block of source.matchAll(/export type \{([^}]*)\}/g)) {
    for (const name of block[1]!.split(',').map((n) => n.trim()).filter(Boolean)) names.add(name.split(/\s+as\s+/).at(-1)!);
  }
  for (const inline of source.matchAll(/\btype (\w+)(?=[,\s}])/g)) names.add(inline[1]!);
  return [...names].sort();
}

describe('the public API', () => {
  it('is exported by name: no export * in the entry', () => {
    expect(ENTRY).not.toMatch(/export (type )?\*/);
  });

  it('exports exactly the reviewed values', () => {
    expect(Object.keys(api).sort()).toEqual([...VALUES].sort());
  });

  // An error a public method throws is exported with it, so callers can catch it by class.
  it('stays curated: at most 64 runtime exports (more belong in a subpath entry, like rxharness/client)', () => {
    expect(Object.keys(api).length).toBeLessThanOrEqual(64);
  });

  it('leaves the internals out (the review named these)', () => {
    for (const internal of ['TAIL_CHARS', 'createTreeState', 'settleTree', 'estimateTokens', 'withAbortSignal', 'ApprovalGrants', 'TaskTracker', 'narrowTools', 'evaluateRules', 'formatTaskResult']) {
      expect(Object.keys(api)).not.toContain(internal);
    }
  });

  it('exports the types a user names (a snapshot: review changes)', () => {
    expect(typeNames(ENTRY)).toMatchSnapshot();
  });
});
