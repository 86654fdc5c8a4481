import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createBashTool } from '../../src/tools/builtin/bash.js';
import { collect, own } from '../support/collect-events.js';
import { offlineEnginePerTest } from '../support/offline-engine.js';
import { scriptedSteps } from '../support/scripted-routes.js';

const printKey = scriptedSteps({ toolCalls: [{ name: 'bash', args: { command: 'printenv OPENAI_API_KEY' } }] }, { text: 'done' });
const allowBash = { permissionRules: [{ tool: 'bash', action: 'allow' as const }] };

describe("what an engine's bash commands get of the model server's key", () => {
  const offline = offlineEnginePerTest();
  beforeEach(() => {
    vi.stubEnv('OPENAI_API_KEY', 'sk-engine-key-0123456789');
  });
  afterEach(() => {
    vi.unstubAllEnvs();
  });

  it('the built-in bash leaves OPENAI_API_KEY out', async () => {
    const o = await offline({ main: printKey }, [], allowBash);
    const [end] = own(await collect(o.engine.stream('show the key')), 'ToolCallEnd');
    expect(end).toMatchObject({ toolName: 'bash', text: '(no output)\n[exit code: 1]' });
  });

  it('a bash tool given in `tools` with an `environment` replaces it', async () => {
    const o = await offline({ main: printKey }, [], { ...allowBash, tools: [createBashTool({ environment: (env) => env })] });
    const [end] = own(await collect(o.engine.stream('show the key')), 'ToolCallEnd');
    expect(end).toMatchObject({ toolName: 'bash', text: 'sk-engine-key-0123456789\n[exit code: 0]' });
  });
});
