import { firstValueFrom, from, toArray } from 'rxjs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { parseNdjson } from '../../src/adapters/parse-ndjson.js';
import { MAX_MESSAGE_DEPTH } from '../../src/client/read-run-stream.js';
import { MAX_DELEGATION_DEPTH } from '../../src/validation/json-depth.js';
import { HarnessEngine } from '../../src/engine/harness-engine.js';
import { ScriptedModel } from '../../src/model/scripted-model.js';
import { eventDepthLimit } from '../../src/validation/json-depth.js';
import { makeWorkspace, type TestWorkspace } from '../support/tool-context.js';

/**
 * Each level of delegation wraps a child's events in one more `TaskWrap`, and the client and
 * `parseNdjson` read at most 64 of them. An engine given a deeper `maxDepth` would send events
 * its own client refuses, so it is refused when made, naming the value and the limit.
 */
let workspace: TestWorkspace;
beforeEach(async () => {
  workspace = await makeWorkspace();
});
afterEach(() => workspace.cleanup());

const engineWith = (maxDepth: number) => new HarnessEngine({ model: new ScriptedModel([{ text: 'ok' }]), workspace: workspace.dir, homeDir: workspace.home, maxDepth });

/** A `TaskWrap` line `depth` levels deep around a `RunStart`, built as text. */
function wrapped(depth: number): string {
  const open = '{"type":"TaskWrap","runId":"r","agentName":"a","parentRunId":"p","taskId":"t","taskIndex":1,' +
    '"taskAgentName":"a","taskDescription":"d","multitask":false,"event":';
  return `${open.repeat(depth)}{"type":"RunStart","runId":"r","agentName":"a","sessionId":"s","prompt":"p"}${'}'.repeat(depth)}\n`;
}

describe('HarnessEngine: maxDepth is bounded by what the readers of its events take', () => {
  it.each([65, 1000, Number.MAX_SAFE_INTEGER])('refuses maxDepth %s when made, naming the value and the limit', (maxDepth) => {
    expect(() => engineWith(maxDepth)).toThrow(RangeError);
    expect(() => engineWith(maxDepth)).toThrow(
      `HarnessEngine: \`maxDepth\` must be an integer from 0 to 64 (the TaskWraps a run's readers, the client and parseNdjson, accept around an event), got ${maxDepth}`,
    );
  });

  it('takes maxDepth 64, the limit', async () => {
    const engine = engineWith(MAX_DELEGATION_DEPTH);
    await engine.close();
  });

  it('the limit is what the client and parseNdjson read: events under 64 TaskWraps, not 65', async () => {
    expect(MAX_DELEGATION_DEPTH).toBe(64);
    expect(MAX_MESSAGE_DEPTH).toBe(eventDepthLimit(MAX_DELEGATION_DEPTH));
    const read = await firstValueFrom(from([wrapped(MAX_DELEGATION_DEPTH)]).pipe(parseNdjson(), toArray()));
    expect(read).toHaveLength(1);
    await expect(firstValueFrom(from([wrapped(MAX_DELEGATION_DEPTH + 1)]).pipe(parseNdjson(), toArray()))).rejects.toThrow(
      `its TaskWraps nest more than ${MAX_DELEGATION_DEPTH} deep (maxDepth)`,
    );
  });
});
