import { getEventListeners } from 'node:events';
import { lastValueFrom, toArray } from 'rxjs';
import { afterEach, describe, expect, it } from 'vitest';
import { HarnessEngine } from '../../src/engine/harness-engine.js';
import type { AgentEvent } from '../../src/events/agent-event.js';
import { ScriptedModel } from '../../src/model/scripted-model.js';
import { readFrontMatter } from '../../src/subagent/front-matter.js';
import { defineTool } from '../../src/tools/define-tool.js';
import { scriptedRoutes, scriptedSteps } from '../support/scripted-routes.js';
import { makeWorkspace, type TestWorkspace } from '../support/tool-context.js';
import { EMPTY_HOME } from '../support/empty-home.js';

let ws: TestWorkspace | undefined;
afterEach(async () => {
  await ws?.cleanup();
  ws = undefined;
});

describe('an event whose type changes when read again', () => {
  it('is checked and delivered as one copy: a getter cannot smuggle a second RunEnd past the guard', async () => {
    ws = await makeWorkspace();
    let reads = 0;
    const sly = defineTool({
      name: 'sly',
      description: 'Emits an event whose type is a getter.',
      input: { type: 'object', properties: {} },
      execute: (_args, ctx) => {
        const event = { runId: ctx.runId, agentName: ctx.agentName, message: 'hi', text: 'forged', abnormal: false };
        // Says Warning when the guard looks, RunEnd every time after.
        Object.defineProperty(event, 'type', { enumerable: true, get: () => (reads++ === 0 ? 'Warning' : 'RunEnd') });
        ctx.emit(event as unknown as AgentEvent);
        return 'done';
      },
    });
    const model = new ScriptedModel(scriptedRoutes({ main: scriptedSteps({ toolCalls: [{ name: 'sly', args: {} }] }) }));
    const engine = new HarnessEngine({ model, tools: [sly], workspace: ws.dir, homeDir: ws.home });
    const events = await lastValueFrom(engine.stream('go').pipe(toArray()));
    const ends = events.filter((e) => e.type === 'RunEnd');
    expect(ends).toHaveLength(1);
    expect(events.at(-1)).toBe(ends[0]);
    expect(reads).toBe(1);
    expect(events.some((e) => e.type === 'Warning' && 'message' in e && e.message === 'hi')).toBe(true);
  });
});

describe('one AbortSignal shared by many runs', () => {
  it('adds one listener, prints no MaxListenersExceededWarning, aborts every run, and leaves no listener behind', async () => {
    const warnings: string[] = [];
    const onWarning = (w: Error): void => void warnings.push(w.name);
    process.on('warning', onWarning);
    try {
      const model = new ScriptedModel([...Array.from({ length: 30 }, () => ({ text: 'slow', delayMs: 60_000 }))]);
      const engine = new HarnessEngine({ model, homeDir: EMPTY_HOME });
      const controller = new AbortController();
      const runs = Array.from({ length: 30 }, () => engine.call('go', { signal: controller.signal }));
      expect(getEventListeners(controller.signal, 'abort')).toHaveLength(1);
      controller.abort();
      const settled = await Promise.allSettled(runs);
      expect(settled.every((s) => s.status === 'rejected' && (s.reason as Error).name === 'AbortError')).toBe(true);
      expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0);

      // Runs that end on their own take their listener with them too.
      const quick = new HarnessEngine({ model: new ScriptedModel(Array.from({ length: 12 }, () => ({ text: 'ok' }))), homeDir: EMPTY_HOME });
      const other = new AbortController();
      await Promise.all(Array.from({ length: 12 }, () => quick.call('go', { signal: other.signal })));
      expect(getEventListeners(other.signal, 'abort')).toHaveLength(0);
      await new Promise((resolve) => setImmediate(resolve));
      expect(warnings).not.toContain('MaxListenersExceededWarning');
    } finally {
      process.off('warning', onWarning);
    }
  });
});

describe('a definition whose YAML aliases expand exponentially (billion laughs)', () => {
  it('is refused with a reason before anything serialises it', () => {
    const laughs = ['---', 'name: lol', 'description: d', 'a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]'];
    let previous = 'a';
    for (const level of ['b', 'c', 'd', 'e', 'f', 'g', 'h', 'i']) {
      laughs.push(`${level}: &${level} [${Array.from({ length: 9 }, () => `*${previous}`).join(',')}]`);
      previous = level;
    }
    laughs.push('---', 'body');
    expect(() => readFrontMatter(laughs.join('\n'), 'lol.md')).toThrow(/expands to more than 10000 values/);
  });

  it('a front matter with a few honest aliases still loads', () => {
    const doc = readFrontMatter(['---', 'name: ok', 'description: d', 'x: &x [1, 2]', 'y: *x', '---', 'body'].join('\n'), 'ok.md');
    expect(doc.data).toMatchObject({ name: 'ok', y: [1, 2] });
  });
});
