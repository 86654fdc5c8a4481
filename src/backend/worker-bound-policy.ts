import { STRENGTH, type PermissionDecision } from '../permission/permission-decision.js';
import { PermissionPolicy, type PermissionPolicyOptions } from '../permission/permission-policy.js';
import type { PermissionRule } from '../permission/permission-rule.js';

/**
 * A job's policy on a worker, bounded by the worker's own `permissionRules` as an outer
 * layer: a job is data anyone who can write to the queue can forge, so its layers decide
 * only within what the worker's operator allows. Every decision is the stricter of the
 * job's and the worker's rules: a worker's deny always wins, its ask still asks (relayed to
 * the engine, as every approval on a worker is), whatever the job's rules allow. The
 * worker's layer has no defaults: where no rule of the worker matches, the job's policy
 * (the engine's rules over the built-in defaults) decides alone, as on the engine. Children
 * it delegates here are bounded the same way.
 *
 * @internal
 */
export class WorkerBoundPolicy extends PermissionPolicy {
  /** The worker's rules alone (no defaults). */
  readonly #worker: PermissionPolicy;

  constructor(options: PermissionPolicyOptions, worker: PermissionPolicy) {
    super(options);
    this.#worker = worker;
  }

  override evaluate(toolName: string, subject?: string, where?: { readonly workspace: string }): PermissionDecision {
    const job = super.evaluate(toolName, subject, where);
    if (job.action === 'deny') return job;
    const own = this.#worker.evaluate(toolName, subject, where);
    if (STRENGTH[own.action] <= STRENGTH[job.action]) return job;
    return { ...own, reason: `${own.reason} (a rule of the worker running the task)` };
  }

  override child(agentRules: readonly PermissionRule[], options: { readonly narrowOnly?: boolean } = {}): PermissionPolicy {
    return new WorkerBoundPolicy({ rules: this.rules, agentRules, parent: this, defaults: this.defaults, narrowOnly: options.narrowOnly ?? false }, this.#worker);
  }
}

/** The worker's rules as a policy of their own (no defaults), or `undefined` when it has none: its jobs' policies are then left as sent. */
export function workerRulesPolicy(rules: readonly PermissionRule[]): PermissionPolicy | undefined {
  return rules.length > 0 ? new PermissionPolicy({ rules, defaults: [] }) : undefined;
}
