import { describe, expect, it } from 'vitest';
import { checkEngineOptions, type HarnessEngineOptions } from '../../src/engine/engine-options.js';
import type { HarnessBackend } from '../../src/engine/harness-backend.js';
import { ScriptedModel } from '../../src/model/scripted-model.js';
import { MemoryEventLog } from '../../src/runs/memory-event-log.js';
import { MemorySessionStore } from '../../src/session/memory-session-store.js';

// The engine's options are checked against one schema; these pin what that adds to the
// messages engine-options.test.ts already pins.

const model = new ScriptedModel([{ text: 'ok' }]);
const check = (options: unknown) => () => checkEngineOptions(options as HarnessEngineOptions);

describe('checkEngineOptions (from the options schema)', () => {
  it.each([
    ['an item of a list', { model, agentDirs: ['agents', 3] }, TypeError, 'HarnessEngine: `agentDirs[1]` must be a string, got number'],
    ['a model map that is not an object', { model, models: 'fast' }, TypeError, 'HarnessEngine: `models` must be an object, got string'],
    ['an infinite count', { model, maxSteps: Number.POSITIVE_INFINITY }, RangeError, 'HarnessEngine: `maxSteps` must be an integer >= 1, got Infinity'],
    ['a null count', { model, maxSteps: null }, RangeError, 'HarnessEngine: `maxSteps` must be an integer >= 1, got null'],
    ['a null timer', { model, toolTimeoutMs: null }, RangeError, 'HarnessEngine: `toolTimeoutMs` must be an integer of milliseconds from 1 to 2147483647 (the longest a timer holds, about 24.8 days), got null'],
    ['a nested timer', { model, a2a: { idleTimeoutMs: -1 } }, RangeError, 'HarnessEngine: `a2a.idleTimeoutMs` must be an integer of milliseconds from 0 to 2147483647 (the longest a timer holds, about 24.8 days), got -1'],
    ['a nested function', { model, a2a: { headers: { authorization: 'x' } } }, TypeError, 'HarnessEngine: `a2a.headers` must be a function, got object'],
    ['an unknown nested key', { model, a2a: { tokn: 'x' } }, TypeError, 'HarnessEngine: `a2a` has unknown key "tokn"; known: token, headers, idleTimeoutMs'],
    ['an array as options', [model], TypeError, 'HarnessEngine: options must be an object with at least `model`'],
  ])('words %s from the schema', (_, options, kind, message) => {
    expect(check(options)).toThrow(kind);
    expect(check(options)).toThrow(message);
  });

  it('names every unknown option at once, and lists every known one', () => {
    expect(check({ model, maxStep: 3, workspce: '.' })).toThrow(/^HarnessEngine: unknown option "maxStep", "workspce"; known options: model, workspace, multitaskMaxTasks, .*, trustWorkspaceAgents, runRetentionMs, maxRetainedRuns, maxRetainedRunBytes, eventLog, tokenBudget, mcpServers, backend, distributeTasks, taskTrackerLimits, a2a$/);
  });

  it('reports an unknown option before any other problem, then the model', () => {
    expect(check({ maxSteps: 0, typo: 1 })).toThrow('unknown option "typo"');
    expect(check({ maxSteps: 0, workspace: 1 })).toThrow('`model` must be a ChatModel');
  });

  it('accepts every documented option with a value of its kind', () => {
    const every: Required<HarnessEngineOptions> = {
      model,
      workspace: '.',
      multitaskMaxTasks: 0,
      multitaskMaxItems: 1,
      maxBackgroundTasks: 0,
      maxConcurrentRequests: 1,
      maxSteps: 1,
      maxDepth: 0,
      agentDirs: [],
      subagentEnabled: true,
      permissionRules: [],
      approve: async () => ({ decision: 'approve' }),
      models: { fast: model },
      sessions: new MemorySessionStore(),
      instructions: '',
      tools: [],
      disabledTools: ['bash'],
      maxResultChars: 1,
      toolTimeoutMs: 1,
      approvalTimeoutMs: 1,
      homeDir: '/',
      trustWorkspaceAgents: false,
      runRetentionMs: 0,
      maxRetainedRuns: 0,
      maxRetainedRunBytes: 0,
      eventLog: new MemoryEventLog(),
      tokenBudget: 1,
      mcpServers: { fs: { command: 'node', args: ['server.js'] }, web: { url: 'http://127.0.0.1:1/mcp' } },
      // Only its kind is checked here (an object with the backend's methods); test/backend/ runs real ones.
      backend: { childLauncher: () => undefined } as unknown as HarnessBackend,
      distributeTasks: true,
      taskTrackerLimits: { retainFinished: 0, retainedBytes: 0, runningEventBytes: 0, undeliveredResults: 1, undeliveredChars: 0 },
      a2a: { token: 'a-long-secret', headers: () => ({ 'x-api-key': 'secret' }), idleTimeoutMs: 0 },
    };
    expect(check(every)).not.toThrow();
  });
});
