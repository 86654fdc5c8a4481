/**
 * The keys and channel of the runs every engine shares: the records, their changes, cancels
 * and answers, their event logs, and the heartbeats of the instances that own them.
 *
 * @module
 */
import { RedisSessionKeys } from './redis-session-keys.js';

/** The names of a backend's run keys (with those of {@link RedisSessionKeys}). */
export class RedisRunKeys extends RedisSessionKeys {
  /** A run's (or a remote child's) event log: a stream. */
  log(runId: string): string {
    return `${this.prefix}:log:${runId}`;
  }

  /** The started runs every engine publishes (a hash: run id to JSON). */
  get runs(): string {
    return `${this.prefix}:runs`;
  }

  /** Where run changes, cancels and answers travel between engines. */
  get runsChannel(): string {
    return `${this.prefix}:runs-events`;
  }

  /**
   * Marks a run cancelled by another engine (kept 10 minutes), written with the cancel's
   * message: the owner cancels only a run Redis marks so (anyone can publish a message).
   */
  runCancelled(runId: string): string {
    return `${this.prefix}:run-cancelled:${runId}`;
  }

  /** An app instance's (a backend's) heartbeat: gone when its process died. */
  instance(instanceId: string): string {
    return `${this.prefix}:instance:${instanceId}`;
  }

  /** Set by the one engine that ended a run whose instance died (so only one does). */
  reaped(runId: string): string {
    return `${this.prefix}:reaped:${runId}`;
  }

  /**
   * An answer sent to another instance's run, until its owner claims it or the sender
   * withdraws it (`pending`, then `claimed`, then `taken` or `refused`; see answer-claim.ts).
   */
  answer(requestId: string): string {
    return `${this.prefix}:answer:${requestId}`;
  }
}
