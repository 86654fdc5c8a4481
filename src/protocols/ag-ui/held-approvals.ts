import type { Interrupt } from '@ag-ui/core';
import type { AgentEvent } from '../../events/agent-event.js';
import type { ProtocolEngine } from '../protocol-engine.js';

/** How often a held approval is looked up again, in milliseconds. */
const RECHECK_MS = 20;

/**
 * Decides which `HITLPending` events become interrupts: only approvals that still wait
 * (`engine.runs.pendingApprovals`). An AG-UI run that replays the log may meet an approval
 * decided since (through the runs API, or by its timeout): asking the client about it would
 * end the AG-UI run on a question nobody can answer. One not waiting when its event is seen
 * is held: it may be about to wait (its event is logged before the wait starts; on a shared
 * backend the owner publishes it later) or about to be decided. Its `HITLDecided` drops it;
 * once it waits, it becomes an interrupt (looked up on every event and every `RECHECK_MS`).
 */
export class HeldApprovals {
  readonly #held = new Map<string, Interrupt>();
  #timer: ReturnType<typeof setInterval> | undefined;

  constructor(
    private readonly engine: ProtocolEngine,
    private readonly runId: string,
    private readonly onWaiting: (interrupts: readonly Interrupt[]) => void,
  ) {}

  /** An approval's interrupt, from its `HITLPending`: shown now if it waits, else held. */
  offer(interrupt: Interrupt): void {
    if (this.#waits(interrupt.id)) return this.onWaiting([interrupt]);
    // A run that has ended decided all its approvals (fail-closed): nothing to hold.
    if (this.engine.runs.get(this.runId)?.state !== 'running') return;
    this.#held.set(interrupt.id, interrupt);
    if (this.#timer === undefined) {
      this.#timer = setInterval(() => this.recheck(), RECHECK_MS);
      this.#timer.unref();
    }
  }

  /** Notes what a later event tells: a held approval's `HITLDecided` drops it. */
  seen(event: AgentEvent): void {
    let inner = event;
    while (inner.type === 'TaskWrap') inner = inner.event;
    if (inner.type === 'HITLDecided') this.#held.delete(inner.approvalId);
    if (this.#held.size === 0) this.stop();
  }

  /** The held approvals that wait now; forgets them all (the AG-UI run ends: shown or not, the next one starts after them). */
  waiting(): Interrupt[] {
    const now = [...this.#held.values()].filter((interrupt) => this.#waits(interrupt.id));
    this.stop();
    return now;
  }

  /** Looks the held approvals up again: any found waiting are shown. */
  recheck(): void {
    if (![...this.#held.keys()].some((id) => this.#waits(id))) return;
    this.onWaiting(this.waiting());
  }

  /** Forgets what is held (the AG-UI run has ended). */
  stop(): void {
    this.#held.clear();
    clearInterval(this.#timer);
    this.#timer = undefined;
  }

  #waits(approvalId: string): boolean {
    return this.engine.runs.pendingApprovals(this.runId).some((approval) => approval.approvalId === approvalId);
  }
}
