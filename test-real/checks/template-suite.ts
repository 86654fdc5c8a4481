/**
 * Every check of the real-server lane for one chat template (issue 11, "Tests on the real
 * server"), on a llama-server of its own. Skipped, with the global setup's note, when no
 * llama-server was found and the environment does not require one.
 */
import { describe, inject } from 'vitest';
import { useRig } from '../support/rig.js';
import { template } from '../support/templates.js';
import { basicRunChecks } from './basic-runs.js';
import { cancellationChecks } from './cancellation.js';
import { cutReplyChecks } from './cut-reply.js';
import { delegationChecks } from './delegation.js';
import { finalStepChecks } from './final-step.js';
import { interruptedSessionChecks } from './interrupted-session.js';
import { reasoningChecks } from './reasoning.js';

/** Registers the suite of the template labelled `label` (see `support/templates.ts`). */
export function templateSuite(label: string): void {
  const profile = template(label);
  const llama = inject('llama');
  const dir = 'dir' in llama ? llama.dir : '';
  describe.skipIf(dir === '')(`${profile.label} (${profile.file}) on llama-server`, () => {
    const rig = useRig(dir, profile);
    basicRunChecks(profile, rig);
    finalStepChecks(profile, rig);
    interruptedSessionChecks(profile, rig);
    cutReplyChecks(profile, rig);
    if (profile.thinking) reasoningChecks(rig);
    cancellationChecks(profile, rig);
    delegationChecks(profile, rig, dir);
  });
}
