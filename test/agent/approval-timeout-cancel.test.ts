import { describe, expect, it, vi } from 'vitest';
import { askingEnginesPerTest, MINUTE } from './asking-engine.js';

// A run cancelled while an approval with a deadline waits leaves no timer behind, even when
// the handler never hears the cancel (it ignores its signal): the deadline is the run's.

const { askingEngine } = askingEnginesPerTest();

describe('a cancel while an approval with a deadline waits', () => {
  it('clears the deadline at once, though the handler ignores its signal', async () => {
    let asked = 0;
    const { engine } = await askingEngine({ approvalTimeoutMs: 10 * MINUTE, approve: () => (asked++, new Promise(() => undefined)) });
    const controller = new AbortController();
    const done = engine.call('go', { signal: controller.signal }).catch((e: unknown) => e);
    for (let i = 0; i < 100 && asked === 0; i++) await vi.advanceTimersByTimeAsync(0);
    expect(asked).toBe(1);
    controller.abort();
    expect((await done) as Error).toMatchObject({ name: 'AbortError' });
    await vi.advanceTimersByTimeAsync(0);
    expect(vi.getTimerCount()).toBe(0);
  });
});
