import { RxHarnessError } from '../errors/rxharness-error.js';

/**
 * A delegated task was refused before it started: a `task` rule denies the agent, a resume
 * names a task that is unknown, another conversation's, another agent's or still running,
 * or the engine is closed to background work. The parent's model reads the message as a
 * failure result; nothing ran.
 *
 * @example
 * ```ts
 * new TaskRefusedError('task "t1" is still running; wait for its result before resuming it');
 * ```
 */
export class TaskRefusedError extends RxHarnessError {
  /** The code of these errors. */
  static override readonly code = 'TASK_REFUSED';
  /** Always `TaskRefusedError`. */
  override readonly name = 'TaskRefusedError';

  constructor(message: string) {
    super(message);
  }
}
