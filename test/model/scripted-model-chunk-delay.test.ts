import { describe, expect, it } from 'vitest';
import { createDemoModel } from '../../src/demo/demo-model.js';
import { ScriptedModel } from '../../src/model/scripted-model.js';
import { MAX_TIMER_MS } from '../../src/validation/max-timer.js';

// A delay above the timer limit would fire after 1 ms (with only a Node warning), and a
// negative or NaN one means nothing: both are refused up front, naming the option.
describe('ScriptedModel chunkDelayMs', () => {
  it.each([MAX_TIMER_MS + 1, -1, Number.NaN, Number.POSITIVE_INFINITY])('refuses %s with a RangeError naming the option', (chunkDelayMs) => {
    expect(() => new ScriptedModel([], { chunkDelayMs })).toThrow(RangeError);
    expect(() => new ScriptedModel([], { chunkDelayMs })).toThrow(/chunkDelayMs.*2147483647/);
  });

  it('refuses the same through createDemoModel', () => {
    expect(() => createDemoModel({ chunkDelayMs: MAX_TIMER_MS + 1 })).toThrow(/chunkDelayMs/);
    expect(() => createDemoModel({ chunkDelayMs: -5 })).toThrow(RangeError);
  });

  it('accepts 0, a fraction and the timer limit itself', () => {
    for (const chunkDelayMs of [0, 2.5, MAX_TIMER_MS]) expect(() => new ScriptedModel([], { chunkDelayMs })).not.toThrow();
    expect(() => createDemoModel({ chunkDelayMs: 0 })).not.toThrow();
  });
});

// A chunk size of 0 (or a fraction, or NaN) never advanced through the text: the stream
// looped for ever, growing memory. Refused where the model is made, and per reply as an
// error of that request (a reply is read while the model streams).
describe('ScriptedModel chunkSize and a reply\'s own timing', () => {
  it.each([0, -1, 0.5, Number.NaN])('refuses a chunkSize of %s where the model is made', (chunkSize) => {
    expect(() => new ScriptedModel([], { chunkSize })).toThrow(/chunkSize.*at least 1/);
  });

  it.each([
    [{ text: 'abc', chunkSize: 0 }, /chunkSize/],
    [{ text: 'abc', delayMs: -1 }, /delayMs/],
    [{ text: 'abc', chunkDelayMs: MAX_TIMER_MS + 1 }, /chunkDelayMs/],
  ])('fails the request of a reply %o with a RangeError, and streams nothing', async (reply, message) => {
    const model = new ScriptedModel([reply]);
    const seen: unknown[] = [];
    const error = await new Promise<unknown>((resolve) => {
      model.stream({ messages: [{ role: 'user', content: 'hi' }] }).subscribe({ next: (c) => seen.push(c), error: resolve, complete: () => resolve(undefined) });
    });
    expect(error).toBeInstanceOf(RangeError);
    expect(String(error)).toMatch(message);
    expect(seen).toEqual([]);
  });

  it('streams a reply of chunkSize 1 character by character', async () => {
    const model = new ScriptedModel([{ text: 'abc', chunkSize: 1 }]);
    const texts: string[] = [];
    await new Promise<void>((resolve, reject) => {
      model.stream({ messages: [{ role: 'user', content: 'hi' }] }).subscribe({ next: (c) => c.type === 'text-delta' && texts.push(c.text), error: reject, complete: resolve });
    });
    expect(texts).toEqual(['a', 'b', 'c']);
  });
});
