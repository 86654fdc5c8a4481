import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ReActAgent } from '../../src/agent/react-agent.js';
import { ScriptedModel, type ScriptedToolCall } from '../../src/model/scripted-model.js';
import { createReadTool } from '../../src/tools/builtin/read.js';
import { createWriteTool } from '../../src/tools/builtin/write.js';
import { resolveWorkspacePath } from '../../src/tools/workspace-path.js';
import { collect, own } from '../support/collect-events.js';
import {
  hostilePath, INSIDE, isInside, KNOWN_PATHS, makeConfinementSandbox, oracleRealPath, outsideSnapshot, SENTINEL, type ConfinementSandbox,
} from '../support/confinement-sandbox.js';

// Random path strings against workspace confinement: the verdict matches an independent
// oracle, and no read or write through an agent ever reaches outside the workspace.

let sandbox: ConfinementSandbox;
beforeAll(async () => {
  sandbox = await makeConfinementSandbox();
});
afterAll(() => sandbox.cleanup());

describe('resolveWorkspacePath on hostile paths', () => {
  it('says inside exactly when the oracle does (symlinks followed, dangling ones too)', async () => {
    const seen = { inside: 0, outside: 0 };
    await fc.assert(
      fc.asyncProperty(hostilePath(sandbox), async (path) => {
        const real = oracleRealPath(sandbox.dir, path);
        const verdict = await resolveWorkspacePath(sandbox.dir, path);
        expect(verdict.inside, `${JSON.stringify(path)} leads to ${real}`).toBe(isInside(sandbox.dir, real));
        if (verdict.inside) expect(verdict.absolute).toBe(real);
        seen[verdict.inside ? 'inside' : 'outside'] += 1;
      }),
      { seed: 1_337, numRuns: 400, examples: KNOWN_PATHS.map((p) => [p]) },
    );
    expect(seen.inside).toBeGreaterThan(50);
    expect(seen.outside).toBeGreaterThan(50);
  });
});

describe('read and write through an agent on hostile paths', () => {
  it('never return a sentinel, never change anything outside, and refuse exactly the outside paths', async () => {
    const before = outsideSnapshot(sandbox);
    const seen = { insideRead: 0, refused: 0 };
    await fc.assert(
      fc.asyncProperty(hostilePath(sandbox), async (path) => {
        const real = oracleRealPath(sandbox.dir, path);
        const inside = isInside(sandbox.dir, real);
        const calls: ScriptedToolCall[] = [
          { id: 'r', name: 'read', args: { path } },
          { id: 'w', name: 'write', args: { path, content: `${INSIDE} (written)` } },
        ];
        const model = new ScriptedModel((_request, { index }) => (index === 0 ? { toolCalls: calls } : { text: 'done' }));
        const agent = new ReActAgent({ model, tools: [createReadTool(), createWriteTool()], workspace: sandbox.dir });
        const events = await collect(agent.stream('touch it'));
        const [read, write] = own(events, 'ToolCallEnd');

        expect(read!.text).not.toContain(SENTINEL);
        expect(events.at(-1)).toMatchObject({ type: 'RunEnd', abnormal: false });
        for (const end of [read!, write!]) {
          const refused = /outside the workspace/.test(end.error ?? '');
          expect(refused, `${end.toolName} ${JSON.stringify(path)} (leads to ${real}): ${end.text}`).toBe(!inside);
          if (refused) seen.refused += 1;
        }
        if (sandbox.insideFiles.includes(real)) {
          expect(read!.text).toContain(INSIDE);
          seen.insideRead += 1;
        }
        expect(outsideSnapshot(sandbox)).toEqual(before);
      }),
      { seed: 2_718, numRuns: 100, examples: KNOWN_PATHS.map((p) => [p]) },
    );
    // Both sides were exercised: real reads inside, refusals outside.
    expect(seen.insideRead).toBeGreaterThan(5);
    expect(seen.refused).toBeGreaterThan(50);
  });
});
