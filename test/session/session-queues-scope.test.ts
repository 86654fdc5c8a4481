import { describe, expect, it } from 'vitest';
import { SessionQueues } from '../../src/session/session-queues.js';

// The write queues are shared by the stores of one folder in a process (a grant save asked
// before another store's delete runs before it), and only by them: a store of another folder
// writing a session of the same id waits on nothing of theirs.
describe('SessionQueues shared by folder', () => {
  const blocked = (): { task: () => Promise<void>; open: () => void } => {
    let open!: () => void;
    const gate = new Promise<void>((r) => (open = r));
    return { task: () => gate, open };
  };

  it('orders the writes of two stores of one folder as one queue', async () => {
    const [a, b] = [new SessionQueues('/tmp/one'), new SessionQueues('/tmp/one')];
    const first = blocked();
    const order: string[] = [];
    const held = a.enqueue('s', async () => {
      await first.task();
      order.push('a');
    });
    const after = b.enqueue('s', async () => void order.push('b'));
    await new Promise((r) => setImmediate(r));
    expect(order).toEqual([]);
    first.open();
    await Promise.all([held, after]);
    expect(order).toEqual(['a', 'b']);
  });

  it('lets a store of another folder write a session of the same id at once', async () => {
    const [a, b] = [new SessionQueues('/tmp/one'), new SessionQueues('/tmp/two')];
    const first = blocked();
    const held = a.enqueue('s', first.task);
    let wrote = false;
    await b.enqueue('s', async () => void (wrote = true));
    expect(wrote).toBe(true);
    first.open();
    await held;
    await a.idle('s');
  });
});
