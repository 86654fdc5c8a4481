/**
 * The page's defence against double-clickjacking (`UserInputGate`): Run and the approval
 * buttons act only after the user's own input on the page. Driven by the events a browser
 * dispatches, on a clock of the test's own.
 */
import { describe, expect, it } from 'vitest';
import { ARM_TRAVEL_PX, SETTLE_MS, TOUCH_ARM_MS, UserInputGate, type GateEvent, type InputSource } from '../../../src/web/page/user-input-gate.js';

/** A window that dispatches what the test says, at the test's time; `since` ms after it loaded (its keys and moves count from `SETTLE_MS`). */
function page(since = SETTLE_MS): { gate: UserInputGate; fire(type: string, event: Partial<GateEvent>): void; at(ms: number): void } {
  const listeners = new Map<string, Array<(event: GateEvent) => void>>();
  let now = 0;
  const source: InputSource = { addEventListener: (type, listener) => listeners.set(type, [...(listeners.get(type) ?? []), listener]) };
  const gate = new UserInputGate(source, () => now);
  now = since;
  return {
    gate,
    fire: (type, event) => listeners.get(type)?.forEach((listener) => listener({ isTrusted: true, timeStamp: now, ...event })),
    at: (ms) => void (now = ms),
  };
}

describe('UserInputGate', () => {
  it('refuses a click on a page that saw no input of the user (the second click of a double-click)', () => {
    const { gate, fire } = page();
    fire('pointermove', { pointerType: 'mouse', screenX: 0, screenY: 0, movementX: 0, movementY: 0 }); // the browser's hover update
    fire('pointermove', { pointerType: 'mouse', screenX: 40, screenY: 30, movementX: 40, movementY: 30 });
    fire('pointerdown', { pointerType: 'mouse', screenX: 40, screenY: 30 });
    expect(gate.allows()).toBe(false);
  });

  it('a key pressed on the page arms it; a held key repeating, or a script dispatching one, does not', () => {
    const held = page();
    held.fire('keydown', { repeat: true });
    held.fire('keydown', { isTrusted: false });
    expect(held.gate.allows()).toBe(false);
    held.fire('keydown', {});
    expect(held.gate.allows()).toBe(true);
  });

  it(`a mouse that travels ${ARM_TRAVEL_PX} px over the page arms it; its first position, a double-click's tremor, the browser's or a script's moves do not`, () => {
    const { gate, fire } = page();
    const move = (screenX: number, screenY: number, more: Partial<GateEvent> = {}) => fire('pointermove', { pointerType: 'mouse', screenX, screenY, movementX: 1, ...more });
    move(0, 0, { movementX: 0 }); // the browser's hover update as the page appears: the pointer did not move
    move(900, 80, { movementX: 900, movementY: 80 }); // where it rests, with the whole way from the corner as movement (Chromium)
    move(902, 79);
    move(0, 0, { isTrusted: false });
    move(899, 81);
    fire('pointerdown', { pointerType: 'mouse', screenX: 899, screenY: 81 });
    expect(gate.allows()).toBe(false); // 8 px
    move(899, 81 + ARM_TRAVEL_PX - 8, { pointerType: 'pen' });
    expect(gate.allows()).toBe(true);
  });

  it(`on a touch screen a tap acts ${TOUCH_ARM_MS} ms after the first touch, not a double tap's second`, () => {
    const { gate, fire, at } = page();
    fire('pointermove', { pointerType: 'touch', screenX: 0, screenY: 0, movementX: 1 }); // a finger's drag is no hover
    fire('pointermove', { pointerType: 'touch', screenX: 500, screenY: 0, movementX: 500 });
    at(SETTLE_MS + 1_000);
    fire('pointerdown', { pointerType: 'touch' });
    at(SETTLE_MS + 1_000 + 250);
    fire('pointerdown', { pointerType: 'touch' });
    expect(gate.allows()).toBe(false);
    at(SETTLE_MS + 1_000 + TOUCH_ARM_MS);
    expect(gate.allows()).toBe(true);
  });

  it(`keys and moves in the first ${SETTLE_MS} ms of the page do not arm it: the hand's way to a second button another site asked for`, () => {
    const { gate, fire, at } = page(0);
    const move = (screenX: number, when: number) => fire('pointermove', { pointerType: 'mouse', screenX, screenY: 0, movementX: 20, timeStamp: when });
    move(100, 50);
    move(160, 150);
    move(220, 300); // 120 px in all, as the page appeared under the hand
    fire('keydown', { timeStamp: 400 });
    at(SETTLE_MS - 1);
    expect(gate.allows()).toBe(false);
    move(220 + ARM_TRAVEL_PX, SETTLE_MS); // the first move that counts only says where the pointer is
    expect(gate.allows()).toBe(false);
    move(220 + 2 * ARM_TRAVEL_PX, SETTLE_MS + 100);
    expect(gate.allows()).toBe(true);
    const keys = page(0);
    keys.fire('keydown', { timeStamp: SETTLE_MS }); // Tab, after the page settled
    expect(keys.gate.allows()).toBe(true);
  });

  it(`a touch in the first ${SETTLE_MS} ms of the page starts no clock: a double tap's second tap, or the tap that brought the tab here`, () => {
    const { gate, fire, at } = page(0);
    fire('pointerdown', { pointerType: 'touch', timeStamp: 150 }); // the second tap of a double tap, as the page appears
    fire('pointerdown', { pointerType: 'touch', timeStamp: SETTLE_MS - 1 });
    at(SETTLE_MS - 1 + TOUCH_ARM_MS);
    expect(gate.allows()).toBe(false);
    fire('pointerdown', { pointerType: 'touch' }); // the first touch that counts: a third tap, where Run is
    expect(gate.allows()).toBe(false);
    at(SETTLE_MS - 1 + 2 * TOUCH_ARM_MS);
    expect(gate.allows()).toBe(true); // the user's tap again, a moment later
  });

  it('a touch still waiting when the page is hidden starts nothing once it is shown again; one that had armed it stays', () => {
    const waiting = page(5_000);
    waiting.fire('pointerdown', { pointerType: 'touch' });
    waiting.at(5_000 + TOUCH_ARM_MS - 1);
    waiting.fire('visibilitychange', {});
    const shown = 5_000 + TOUCH_ARM_MS - 1;
    waiting.at(shown + SETTLE_MS + TOUCH_ARM_MS);
    expect(waiting.gate.allows()).toBe(false);
    waiting.fire('pointerdown', { pointerType: 'touch' }); // the user's touch on the page shown again
    waiting.at(shown + SETTLE_MS + 2 * TOUCH_ARM_MS);
    expect(waiting.gate.allows()).toBe(true);
    const armed = page(5_000);
    armed.fire('pointerdown', { pointerType: 'touch' });
    armed.at(5_000 + TOUCH_ARM_MS);
    armed.fire('visibilitychange', {});
    expect(armed.gate.allows()).toBe(true);
  });

  it('a page shown again waits anew before keys count', () => {
    const { gate, fire } = page(5_000);
    fire('visibilitychange', {});
    fire('keydown', { timeStamp: 5_000 + SETTLE_MS - 1 });
    expect(gate.allows()).toBe(false);
    fire('keydown', { timeStamp: 5_000 + SETTLE_MS });
    expect(gate.allows()).toBe(true);
  });
});
