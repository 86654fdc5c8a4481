import type { Interrupt } from '@ag-ui/core';
import type { AgentEvent } from '../../events/agent-event.js';
import type { ProtocolEngine } from '../protocol-engine.js';

/**
 * Decides which `HITLPending` events become interrupts: only approvals that still wait
 * (`engine.runs.pendingApprovals`). An AG-UI run that replays the log may meet an approval
 * decided since (through the runs API, or by its timeout): asking the client about it would
 * end the AG-UI run on a question nobody can answer. One not waiting when its event is seen
 * is held: it may be about to wait (its event is logged before the wait starts; on a shared
 * backend the owner publishes it later) or about to be decided. Its `HITLDecided` drops it;
 * once it waits, it becomes an interrupt: the registry signals each change of the run's
 * waiting approvals (`engine.runs.watchApprovals`), and the held ones are looked up again
 * then, never on a timer. What is still held when the AG-UI run ends waiting for the client
 * (on a frontend call) is not asked about by this AG-UI run: {@link HeldApprovals.rest} hands
 * it to the next one, which takes it back with {@link HeldApprovals.carry}. At the run's end
 * nothing is handed on: the run decided every approval it had (fail-closed).
 */
export class HeldApprovals {
  readonly #held = new Map<string, Interrupt>();
  #unwatch: (() => void) | undefined;

  constructor(
    private readonly engine: ProtocolEngine,
    private readonly runId: string,
    private readonly onWaiting: (interrupts: readonly Interrupt[]) => void,
  ) {}

  /** An approval's interrupt, from its `HITLPending`: shown now if it waits, else held. */
  offer(interrupt: Interrupt): void {
    if (this.#waits(interrupt.id)) return this.onWaiting([interrupt]);
    this.#hold([interrupt]);
  }

  /**
   * Approvals handed on by the last AG-UI run ({@link HeldApprovals.rest}): all held first,
   * then those that wait now shown together. Offered one by one, the first found waiting would
   * end this AG-UI run before the others were held, and they would be asked by no AG-UI run.
   */
  carry(interrupts: readonly Interrupt[]): void {
    if (this.#hold(interrupts)) this.#recheck();
  }

  /** Holds `interrupts` and listens for the run's approvals to change; false (nothing held) once the run has ended. */
  #hold(interrupts: readonly Interrupt[]): boolean {
    // A run that has ended decided all its approvals (fail-closed): nothing to hold.
    if (interrupts.length === 0 || this.engine.runs.get(this.runId)?.state !== 'running') return false;
    for (const interrupt of interrupts) this.#held.set(interrupt.id, interrupt);
    this.#unwatch ??= this.engine.runs.watchApprovals(this.runId, () => this.#recheck());
    return true;
  }

  /** Notes what a later event tells: a held approval's `HITLDecided` drops it. */
  seen(event: AgentEvent): void {
    let inner = event;
    while (inner.type === 'TaskWrap') inner = inner.event;
    if (inner.type === 'HITLDecided') this.#held.delete(inner.approvalId);
    if (this.#held.size === 0) this.stop();
  }

  /**
   * The held approvals that wait now; the others stay held until {@link HeldApprovals.stop}
   * or {@link HeldApprovals.rest} (the AG-UI run ends: the next one starts after them).
   */
  waiting(): Interrupt[] {
    const now = [...this.#held.values()].filter((interrupt) => this.#waits(interrupt.id));
    for (const interrupt of now) this.#held.delete(interrupt.id);
    if (this.#held.size === 0) this.stop(); // nothing left to hear of
    return now;
  }

  /**
   * What is still held (not waiting yet, not decided), forgotten here: the AG-UI run ends
   * waiting for the client, and the next AG-UI run of the thread, which starts after these
   * approvals' events, must offer them again or never ask about them.
   */
  rest(): Interrupt[] {
    const rest = [...this.#held.values()];
    this.stop();
    return rest;
  }

  /** Forgets what is held and stops listening (the AG-UI run has ended). */
  stop(): void {
    this.#held.clear();
    this.#unwatch?.();
    this.#unwatch = undefined;
  }

  /** The run's waiting approvals changed: any held ones found waiting are shown. */
  #recheck(): void {
    const now = this.waiting();
    if (now.length > 0) this.onWaiting(now);
  }

  #waits(approvalId: string): boolean {
    return this.engine.runs.pendingApprovals(this.runId).some((approval) => approval.approvalId === approvalId);
  }
}
