/**
 * The scene of the task-session tests: a conversation `s1` whose prompt `go` delegates one task
 * to `alpha` (the task's transcript: `PARENT-PROMPT`, then `CHILD-ANSWER`), on a
 * {@link DelegationFixture} closed after each test with every engine it made; and the restart
 * after which only a FileSessionStore knows that task.
 *
 * @module
 */
import type { HarnessEngine } from '../../../src/engine/harness-engine.js';
import type { HarnessEngineOptions } from '../../../src/engine/engine-options.js';
import { FileSessionStore } from '../../../src/session/file-session-store.js';
import { testAgent } from '../../support/agent-turns.js';
import type { AgentRoute, DelegationFixture } from '../../support/delegation-fixture.js';
import { taskReply } from '../../support/delegation-script.js';
import { delegationFixturePerTest } from '../../support/fixture-per-test.js';

/** What the task's session holds once `go` has run on `s1`. */
export const TASK_TRANSCRIPT = [
  { role: 'user', content: 'PARENT-PROMPT' },
  { role: 'assistant', content: 'CHILD-ANSWER' },
] as const;

/**
 * The agents' routes: the main agent answers `go` by delegating `PARENT-PROMPT` to `alpha`
 * (then `ok`), any other prompt with `other`; `alpha` answers `CHILD-ANSWER`.
 */
export function taskSessionRoutes(other = 'INJECTED-ANSWER'): Record<string, AgentRoute> {
  return {
    main: (turn) => (turn.prompt === 'go' ? (turn.step === 1 ? taskReply('alpha', 'PARENT-PROMPT', 'job') : { text: 'ok' }) : { text: other }),
    alpha: () => ({ text: 'CHILD-ANSWER' }),
  };
}

/** The scene after a restart ({@link TaskSessionScene.restarted}). */
export interface Restarted<S extends FileSessionStore> {
  readonly fixture: DelegationFixture;
  /** The task `go` on `s1` delegated, before the restart. */
  readonly taskId: string;
  /** The fresh engine's store, on the folder the earlier engine wrote. */
  readonly store: S;
  /** The engine after the restart: its tracker knows no task, its store does. */
  readonly engine: HarnessEngine;
}

/** The current test's task-session scene; see {@link taskSessionPerTest}. */
export interface TaskSessionScene {
  /** Starts the fixture on {@link taskSessionRoutes}`(other)`; it and its engines are closed after the test. */
  start(other?: string): Promise<DelegationFixture>;
  /** An engine of the started fixture, with `alpha` added. */
  engine(options?: Partial<HarnessEngineOptions>): HarnessEngine;
  /**
   * Starts the fixture, runs `go` on `s1` with an engine over a FileSessionStore on the
   * workspace (its grant key in the fixture's home) and closes that engine, then makes a fresh
   * engine over `makeStore(workspace, home)` (a FileSessionStore by default): only the store
   * knows the task now.
   */
  restarted<S extends FileSessionStore = FileSessionStore>(other?: string, makeStore?: (dir: string, home: string) => S): Promise<Restarted<S>>;
}

/**
 * Registers the `afterEach` that closes what the current test started, and returns the scene.
 * Call once at the top of a test file.
 *
 * @example
 * ```ts
 * const scene = taskSessionPerTest();
 * it('...', async () => {
 *   const { engine, taskId, store } = await scene.restarted();
 *   expect(engine.tasks.get(taskId)).toBeUndefined(); // only the store knows it
 * });
 * ```
 */
export function taskSessionPerTest(): TaskSessionScene {
  const startFixture = delegationFixturePerTest();
  let f: DelegationFixture | undefined;
  const start = async (other?: string): Promise<DelegationFixture> => (f = await startFixture(taskSessionRoutes(other)));
  const engine = (options: Partial<HarnessEngineOptions> = {}): HarnessEngine => {
    if (f === undefined) throw new Error('taskSessionPerTest: start() the scene first');
    return f.engine(options, [testAgent('alpha')]);
  };
  return {
    start,
    engine,
    async restarted<S extends FileSessionStore>(other?: string, makeStore?: (dir: string, home: string) => S): Promise<Restarted<S>> {
      const fixture = await start(other);
      // The fixture's home keeps the store's grant key: never the real ~/.rxharness.
      const earlier = engine({ sessions: new FileSessionStore(fixture.workspace.dir, { home: fixture.home }) });
      await earlier.call('go', { sessionId: 's1' });
      const taskId = earlier.tasks.list('s1')[0]!.taskId;
      await earlier.close();
      const store = makeStore ? makeStore(fixture.workspace.dir, fixture.home) : (new FileSessionStore(fixture.workspace.dir, { home: fixture.home }) as S);
      return { fixture, taskId, store, engine: engine({ sessions: store }) };
    },
  };
}
