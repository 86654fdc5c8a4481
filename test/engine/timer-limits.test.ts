import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { lastValueFrom, toArray } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { askWithDeadline } from '../../src/agent/approval-deadline.js';
import { ReActAgent } from '../../src/agent/react-agent.js';
import type { AgentEvent } from '../../src/events/agent-event.js';
import { HarnessEngine } from '../../src/engine/harness-engine.js';
import type { HarnessEngineOptions } from '../../src/engine/engine-options.js';
import { OpenAIChatModel } from '../../src/model/openai-chat-model.js';
import { ScriptedModel } from '../../src/model/scripted-model.js';
import { defineTool } from '../../src/tools/define-tool.js';
import type { Tool } from '../../src/tools/tool.js';
import { MAX_TIMER_MS } from '../../src/validation/max-timer.js';
import { toolContextPerTest } from '../support/tool-context-per-test.js';

// Node fires a setTimeout longer than 2^31 - 1 ms after 1 ms (TimeoutOverflowWarning): a
// "five weeks" timeout would stop a tool, or reject an approval, at once. Every option that
// becomes a timer refuses such a value, naming it; a timer site given one anyway sets none.

const FIVE_WEEKS = 35 * 24 * 3600 * 1000; // 3,024,000,000
const LIMIT = `from 1 to ${MAX_TIMER_MS} (the longest a timer holds, about 24.8 days)`;

const fresh = toolContextPerTest();

const engineWith = (options: Partial<HarnessEngineOptions>): HarnessEngine =>
  new HarnessEngine({ model: new ScriptedModel([{ text: 'ok' }]), workspace: fresh.ws.dir, homeDir: fresh.ws.home, ...options });

describe('options that become timers refuse more than a timer holds, naming the option', () => {
  it.each([
    ['toolTimeoutMs', { toolTimeoutMs: MAX_TIMER_MS + 1 }, `HarnessEngine: \`toolTimeoutMs\` must be an integer of milliseconds ${LIMIT}, got 2147483648`],
    ['approvalTimeoutMs', { approvalTimeoutMs: FIVE_WEEKS }, `HarnessEngine: \`approvalTimeoutMs\` must be an integer of milliseconds ${LIMIT}, got 3024000000`],
    ['a2a.idleTimeoutMs', { a2a: { idleTimeoutMs: FIVE_WEEKS } }, `HarnessEngine: \`a2a.idleTimeoutMs\` must be an integer of milliseconds from 0 to ${MAX_TIMER_MS} (the longest a timer holds, about 24.8 days), got 3024000000`],
  ])('HarnessEngine %s', (_, options, message) => {
    expect(() => engineWith(options)).toThrow(new RangeError(message));
  });

  it('HarnessEngine takes the longest a timer holds', async () => {
    const engine = engineWith({ toolTimeoutMs: MAX_TIMER_MS, approvalTimeoutMs: MAX_TIMER_MS, a2a: { idleTimeoutMs: MAX_TIMER_MS } });
    expect((await engine.call('hi')).text).toBe('ok');
    await engine.close();
  });

  it('ReActAgent toolTimeoutMs', () => {
    expect(() => new ReActAgent({ model: new ScriptedModel([]), workspace: fresh.ws.dir, toolTimeoutMs: FIVE_WEEKS })).toThrow(
      new RangeError(`ReActAgent: \`toolTimeoutMs\` must be an integer of milliseconds ${LIMIT}, got 3024000000`),
    );
  });

  it.each(['timeoutMs', 'maxRetryDelayMs'])('OpenAIChatModel %s', (name) => {
    expect(() => new OpenAIChatModel({ model: 'm', apiKey: 'k', [name]: FIVE_WEEKS })).toThrow(
      new RangeError(`OpenAIChatModel: \`${name}\` must be at most ${MAX_TIMER_MS} ms (the longest a timer holds, about 24.8 days), got 3024000000`),
    );
  });

  it("defineTool's timeoutMs (Infinity stays allowed: a tool bounded by other means)", () => {
    const define = (timeoutMs: number) => () => defineTool({ name: 'slow', description: 'd', input: { type: 'object' }, timeoutMs, execute: () => 'x' });
    expect(define(FIVE_WEEKS)).toThrow(new RangeError(`defineTool("slow"): \`timeoutMs\` must be an integer of milliseconds ${LIMIT} or Infinity, got 3024000000`));
    expect(define(0)).toThrow(RangeError);
    expect(define(Number.POSITIVE_INFINITY)).not.toThrow();
    expect(define(MAX_TIMER_MS)).not.toThrow();
  });
});

describe('a timer site given more than a timer holds sets no timer, rather than firing at once', () => {
  it("a hand-built tool's timeoutMs of five weeks does not stop a 100 ms call", async () => {
    const slow: Tool = {
      name: 'slow',
      description: 'takes 100 ms',
      parameters: { type: 'object', properties: {} },
      timeoutMs: FIVE_WEEKS,
      execute: async () => {
        await new Promise((r) => setTimeout(r, 100));
        return 'slow result';
      },
    };
    const model = new ScriptedModel([{ toolCalls: [{ name: 'slow', args: {} }] }, { text: 'done' }]);
    const engine = engineWith({ model, tools: [slow] });
    const events: AgentEvent[] = await lastValueFrom(engine.stream('go').pipe(toArray()));
    expect(events.find((e) => e.type === 'ToolCallEnd')).toMatchObject({ toolName: 'slow', text: 'slow result' });
    expect(events.find((e) => e.type === 'ToolCallEnd')).not.toHaveProperty('error');
    await engine.close();
  });

  it('an approval deadline of five weeks (a job from another engine) waits for an answer given after 100 ms', async () => {
    const approve = async (): Promise<{ decision: 'approve' }> => {
      await new Promise((r) => setTimeout(r, 100));
      return { decision: 'approve' };
    };
    const request = { toolName: 'bash', args: {}, reason: 'r' } as unknown as Parameters<typeof askWithDeadline>[1];
    await expect(askWithDeadline(approve, request, new AbortController().signal, FIVE_WEEKS)).resolves.toEqual({ answer: { decision: 'approve' } });
  });
});

describe('the limit', () => {
  it('is written once, in src/validation/max-timer.ts', () => {
    const src = fileURLToPath(new URL('../../src', import.meta.url));
    const holders = readdirSync(src, { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isFile() && entry.name.endsWith('.ts'))
      .map((entry) => join(entry.parentPath, entry.name))
      .filter((file) => /2_?147_?483_?647/.test(readFileSync(file, 'utf8')));
    expect(holders.map((file) => file.slice(src.length + 1))).toEqual(['validation/max-timer.ts']);
    expect(MAX_TIMER_MS).toBe(2 ** 31 - 1);
  });
});
