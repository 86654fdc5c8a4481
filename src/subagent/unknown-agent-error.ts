/**
 * Asked for an agent nobody defined. The message names it and lists the agents that are
 * visible, so a caller (or a model) can correct itself.
 */
export class UnknownAgentError extends Error {
  /** Always `'UnknownAgentError'`, to recognise the error without `instanceof` (e.g. across package copies). */
  override readonly name = 'UnknownAgentError';
  /** The name that was asked for. */
  readonly agentName: string;
  /** Names of the visible agents at the time. */
  readonly available: readonly string[];

  constructor(agentName: string, available: readonly string[]) {
    const list = available.length > 0 ? `available agents: ${available.join(', ')}` : 'no agents are available';
    super(`unknown agent "${agentName}"; ${list}`);
    this.agentName = agentName;
    this.available = Object.freeze([...available]);
  }
}
