import type { Observable } from 'rxjs';
import { TestScheduler } from 'rxjs/testing';
import { expect } from 'vitest';

/** A `TestScheduler` whose assertions are vitest's deep equality. */
export function createTestScheduler(): TestScheduler {
  return new TestScheduler((actual, expected) => expect(actual).toEqual(expected));
}

/**
 * Subscribes to `source$` and logs each notification as `"<virtual ms> <label>"`: a value
 * through `label`, completion as `|`, an error as `# <name>: <message>`. Call it inside
 * `scheduler.run(...)`; the log is complete once `run` returns.
 */
export function timeline<T>(scheduler: TestScheduler, source$: Observable<T>, label: (value: T) => string): string[] {
  const log: string[] = [];
  const at = (text: string): number => log.push(`${scheduler.now()} ${text}`);
  source$.subscribe({
    next: (value) => at(label(value)),
    error: (e: unknown) => at(`# ${(e as Error).name}: ${(e as Error).message}`),
    complete: () => at('|'),
  });
  return log;
}
