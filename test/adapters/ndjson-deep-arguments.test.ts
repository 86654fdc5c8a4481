/**
 * `parseNdjson` bounds the `TaskWrap`s of a line (`maxDepth`), and the nesting of the whole
 * line too: a tool call whose arguments nest 100,000 deep, under no wrap at all, would reach
 * the subscriber, whose `JSON.stringify` or view then overflows its stack. The deepest real
 * event (arguments as deep as the engine keeps them, under `maxDepth` wraps) still passes.
 */
import { lastValueFrom, of, toArray } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { NdjsonParseError, parseNdjson } from '../../src/adapters/index.js';
import type { AgentEvent } from '../../src/events/index.js';
import { eventDepthLimit, MAX_JSON_DEPTH } from '../../src/validation/json-depth.js';

/** Text of a ToolCallStart whose arguments nest `depth` arrays deep, under `wraps` TaskWraps (written by hand: JSON.stringify of a deep value is what overflows). */
function deepLine(depth: number, wraps: number): string {
  const args = `${'['.repeat(depth)}${']'.repeat(depth)}`;
  let event = `{"type":"ToolCallStart","runId":"r","agentName":"a","callId":"c","toolName":"t","args":${args}}`;
  for (let i = 0; i < wraps; i++) {
    event = `{"type":"TaskWrap","runId":"r${i}","agentName":"main","taskId":"t${i}","taskAgentName":"a","taskDescription":"d","event":${event}}`;
  }
  return `${event}\n`;
}

async function parsed(line: string): Promise<AgentEvent[] | NdjsonParseError> {
  return lastValueFrom(of(line).pipe(parseNdjson(), toArray())).catch((e: unknown) => {
    if (e instanceof NdjsonParseError) return e;
    throw e;
  });
}

describe('parseNdjson: how deep a whole line may nest', () => {
  it('arguments 100,000 deep under no TaskWrap: a clear error naming the bound, nothing delivered', async () => {
    const result = await parsed(deepLine(100_000, 0));
    expect(result).toBeInstanceOf(NdjsonParseError);
    expect((result as Error).message).toMatch(`nests arrays and objects more than ${eventDepthLimit(64)} deep`);
  });

  it('the deepest real event (arguments as deep as the engine keeps, 64 TaskWraps) passes; one level more does not', async () => {
    // the event object is 1 level, its arguments MAX_JSON_DEPTH, each wrap 1: within the bound's envelope
    const deepest = await parsed(deepLine(MAX_JSON_DEPTH, 64));
    expect(Array.isArray(deepest)).toBe(true);
    expect(() => JSON.stringify(deepest)).not.toThrow();
    const over = eventDepthLimit(64) - 64; // arguments that bring the line one past the bound
    expect(await parsed(deepLine(over, 64))).toBeInstanceOf(NdjsonParseError);
  });

  it('a smaller maxDepth lowers the bound with it', async () => {
    const line = deepLine(MAX_JSON_DEPTH + 3, 0);
    expect(Array.isArray(await lastValueFrom(of(line).pipe(parseNdjson({ maxDepth: 0 }), toArray())))).toBe(true);
    expect(await lastValueFrom(of(deepLine(MAX_JSON_DEPTH + 4, 0)).pipe(parseNdjson({ maxDepth: 0 }), toArray())).catch((e: unknown) => e)).toBeInstanceOf(NdjsonParseError);
  });
});
