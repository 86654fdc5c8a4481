import { RxHarnessError } from '../errors/rxharness-error.js';

/**
 * Asked for an agent nobody defined. The message names it and lists the agents that are
 * visible, so a caller (or a model) can correct itself.
 */
export class UnknownAgentError extends RxHarnessError {
  /** The code of these errors. */
  static override readonly code = 'UNKNOWN_AGENT';
  /** Always `'UnknownAgentError'`, to recognise the error without `instanceof` (e.g. across package copies). */
  override readonly name = 'UnknownAgentError';
  /** The name that was asked for. */
  readonly agentName: string;
  /** Names of the visible agents at the time. */
  readonly available: readonly string[];

  /**
   * @param agentName - the name that was asked for.
   * @param available - the visible agents' names.
   * @param options - `disabled`: the agent exists but is disabled; `listing`: how to list the
   *   agents in the message (e.g. with their descriptions, for a model), instead of the names.
   */
  constructor(agentName: string, available: readonly string[], options: { disabled?: boolean; listing?: string } = {}) {
    const why = options.disabled ? `agent "${agentName}" is disabled` : `unknown agent "${agentName}"`;
    const list = options.listing !== undefined ? `. Available agents: ${options.listing}` : available.length > 0 ? `; available agents: ${available.join(', ')}` : '; no agents are available';
    super(`${why}${list}`);
    this.agentName = agentName;
    this.available = Object.freeze([...available]);
  }
}
