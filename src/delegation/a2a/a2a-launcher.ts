import { randomUUID } from 'node:crypto';
import { Observable } from 'rxjs';
import type { AgentEvent, ReasonDeltaEvent, RunEndEvent } from '../../events/agent-event.js';
import { EMPTY_METRICS } from '../../events/run-metrics.js';
import { errorMessage } from '../../errors/error-message.js';
import type { ChildLauncher, ChildRun } from '../run-child.js';
import { truncate } from '../task-result-format.js';
import { DeltaCoalescer } from './delta-coalescer.js';
import { remoteA2AClient } from './remote-a2a-client.js';
import { DEFAULT_A2A_IDLE_TIMEOUT_MS, DEFAULT_A2A_MAX_CHARS, DEFAULT_A2A_MAX_UPDATES, type RemoteA2AOptions } from './remote-a2a-options.js';
import { RemoteCredentials } from './remote-credentials.js';
import { RemoteUpdates, type RemoteEnd } from './remote-updates.js';
import { StreamRedactor } from './stream-redactor.js';

/** A remote task's updates handled in one turn of the event loop, at most. */
export const YIELD_EVERY = 200;

/**
 * The most characters of a remote task's error (`RunEnd.error`). The remote writes most of it
 * (a JSON-RPC error's message and data, an error page, a failed state's message), and such a
 * text of megabytes would go whole into every protocol's stream; its start says what broke.
 */
export const MAX_REMOTE_ERROR_CHARS = 4_000;

/** Bounds on what one remote task may send, over the engine's `a2a` options. */
export interface RemoteA2ALimits {
  /** The most characters (artifacts and status messages together, their file and data parts by size); beyond it the task fails. Default `a2a.maxChars`, else 1,000,000. */
  readonly maxChars?: number;
  /** The most updates; beyond it the task fails (a remote that never ends). Default `a2a.maxUpdates`, else 25,000. */
  readonly maxUpdates?: number;
  /** Milliseconds a cancel waits for the remote task's id (to send `tasks/cancel`) before it drops the stream. Default 10,000. */
  readonly cancelWaitMs?: number;
}

/** The remote agent a definition names, as the task runner hands it to {@link a2aLauncher}. */
export interface RemoteA2AAgent {
  /** The definition's `a2a`: its card's URL, or the agent's base URL. */
  readonly cardUrl: string;
  /**
   * The file of a workspace definition the engine does not trust (`trustWorkspaceAgents`
   * unset): its task is sent without any credentials (see `RemoteCredentials`). Absent for
   * every other definition.
   */
  readonly untrustedFile?: string;
}

/**
 * Runs a child on the remote A2A agent whose card is at `remote.cardUrl`: its prompt is sent with
 * `message/stream` (A2A 1.0 `SendStreamingMessage`), its updates become the child's events
 * (a `RunStart`, a `ReasonStart`, deltas from its artifacts and status messages, coalesced
 * by a {@link DeltaCoalescer}, a `ReasonEnd`, and exactly one `RunEnd`), wrapped by the task
 * runner like any child's. The answer is the final status message's text (else its
 * artifacts'). A failed, rejected or cancelled remote task, an unreachable card, a JSON-RPC
 * error, a stream that ends without a final state, sends more than the limits allow or
 * nothing for `options.idleTimeoutMs`, names a task or context other than its own, or sends a
 * `message` once its task began (A2A streams one or the other) ends the run abnormally with a message naming the agent, its credentials redacted. Unsubscribing (the
 * parent cancelled, `cancelTask`), the idle timeout, or a failure on our side of a task that has
 * not ended (or one left waiting for input, which a child cannot give) sends `tasks/cancel`
 * for the remote task (once), then drops the stream. The
 * headers are {@link RemoteCredentials}' (none for `remote.untrustedFile`); every request goes
 * through `remoteFetch` (no redirects, bodies other than the event stream capped at 1 MiB).
 */
export function a2aLauncher(remote: RemoteA2AAgent, options: RemoteA2AOptions = {}, limits: RemoteA2ALimits = {}): ChildLauncher {
  const { cardUrl, untrustedFile } = remote;
  const maxChars = limits.maxChars ?? options.maxChars ?? DEFAULT_A2A_MAX_CHARS;
  const maxUpdates = limits.maxUpdates ?? options.maxUpdates ?? DEFAULT_A2A_MAX_UPDATES;
  const cancelWaitMs = limits.cancelWaitMs ?? 10_000;
  const idleMs = options.idleTimeoutMs ?? DEFAULT_A2A_IDLE_TIMEOUT_MS;
  return {
    run$: (child: ChildRun) =>
      new Observable<AgentEvent>((out) => {
        const started = Date.now();
        const ids = { runId: `run_${randomUUID()}`, agentName: child.agent.name };
        const credentials = new RemoteCredentials({ cardUrl, agentName: child.agent.name }, options, untrustedFile);
        const updates = new RemoteUpdates(ids);
        // Redacted as forwarded, so that a secret split across deltas is caught too (see StreamRedactor).
        const redactor = new StreamRedactor(() => credentials.secrets);
        const forward = (delta: ReasonDeltaEvent): void => {
          const text = redactor.piece(delta.kind, delta.text);
          if (text) out.next({ ...delta, text });
        };
        const deltas = new DeltaCoalescer(forward);
        const abort = new AbortController();
        let unsubscribed = false;
        let finished = false;
        let cancelRemote: ((taskId: string) => void) | undefined;
        let idle: ReturnType<typeof setTimeout> | undefined;
        let dropLater: ReturnType<typeof setTimeout> | undefined;
        let begun = false;
        // Until message/stream is sent, no remote task can exist: stopping then needs no tasks/cancel, nor any wait.
        let streamSent = false;
        const who = `the remote A2A agent ${child.agent.name} (${cardUrl})`;
        // The run starts when the remote agent has taken the task (its id known, so a cancel can reach it), or fails before.
        const begin = (): void => {
          if (begun) return;
          begun = true;
          out.next({ ...ids, type: 'RunStart', sessionId: child.taskId, prompt: child.prompt });
          out.next({ ...ids, type: 'ReasonStart', step: 1 });
        };
        const end = (answer: string, why?: string): void => {
          if (unsubscribed || finished) return;
          clearTimeout(idle);
          begin();
          deltas.flush();
          deltas.close();
          for (const tail of redactor.end()) out.next({ ...ids, type: 'ReasonDelta', step: 1, ...tail });
          finished = true;
          const durationMs = Date.now() - started;
          const text = credentials.redact(answer);
          const error = why === undefined ? {} : { error: truncate(credentials.redact(why), MAX_REMOTE_ERROR_CHARS) };
          out.next({ ...ids, type: 'ReasonEnd', step: 1, text, toolCalls: [], durationMs });
          const runEnd: RunEndEvent = { ...ids, type: 'RunEnd', text, abnormal: why !== undefined, ...error, metrics: { ...EMPTY_METRICS, durationMs }, steps: 1 };
          out.next(runEnd);
          out.complete();
        };
        let cancelSent = false;
        // tasks/cancel goes once, whichever way the run stops (cancelled, timed out, failed on our limits), and never for a task that ended.
        const stopRemote = (): void => {
          if (updates.taskId !== undefined && (updates.end === undefined || waiting(updates.end)) && !cancelSent && cancelRemote !== undefined) {
            cancelSent = true;
            cancelRemote(updates.taskId);
          }
          abort.abort();
        };
        // The remote task is cancelled by its id: known now, or at the stream's next update (waited for, within cancelWaitMs).
        // Before message/stream is sent (the card still being read) there is no task: the card read stops at once.
        const stopRemoteSoon = (): void => {
          if (updates.taskId !== undefined || !streamSent) stopRemote();
          else dropLater = setTimeout(() => abort.abort(), cancelWaitMs).unref();
        };
        // A silent remote holds its task (and the parent) until cancelled: each update restarts this timer.
        const stillAlive = (): void => {
          if (idleMs === 0) return;
          clearTimeout(idle);
          idle = setTimeout(() => {
            end(updates.artifactText, `${who} sent nothing for ${idleMs} ms (the engine's a2a.idleTimeoutMs), so its task was cancelled`);
            stopRemoteSoon();
          }, idleMs);
        };
        stillAlive();
        void (async () => {
          const client = await remoteA2AClient(cardUrl, credentials, abort.signal);
          if (unsubscribed || finished) return abort.abort(); // timed out or cancelled while the card was read: send nothing
          // Its own deadline, not the stream's signal: the stream is dropped right after it is sent.
          cancelRemote = (taskId) => void client.cancelTask({ tenant: '', id: taskId, metadata: undefined }, { signal: AbortSignal.timeout(cancelWaitMs) }).catch(() => undefined);
          const message = { messageId: randomUUID(), contextId: '', taskId: '', role: 1, parts: [textPart(child.prompt)], metadata: undefined, extensions: [], referenceTaskIds: [] };
          let count = 0;
          streamSent = true;
          for await (const response of client.sendMessageStream({ tenant: '', message, configuration: undefined, metadata: undefined }, { signal: abort.signal })) {
            const events = updates.of(response);
            if (unsubscribed || finished) return stopRemote(); // cancelled, or timed out, before the task's id was known
            if (updates.foreign !== undefined) throw new Error(`it sent an update for ${updates.foreign}: one stream carries one task`);
            if (updates.misplaced !== undefined) throw new Error(updates.misplaced);
            stillAlive();
            if (++count > maxUpdates) throw new Error(`it sent more than ${maxUpdates} updates without finishing (the engine's a2a.maxUpdates)`);
            if (updates.chars > maxChars) throw new Error(`it sent more than ${maxChars} characters of text (the engine's a2a.maxChars)`);
            begin();
            for (const event of events) deltas.add(event);
            if (updates.end !== undefined) break;
            // One network read may hold hundreds of updates: let other work in between.
            if (count % YIELD_EVERY === 0) await new Promise<void>((resolve) => setImmediate(resolve));
          }
          const final = updates.end;
          if (final === undefined) return end(updates.artifactText, `${who} ended its stream without a final state`);
          const answer = final.text || updates.artifactText;
          if (final.state === 'completed') return end(answer);
          end(answer, `${who} ended its task ${final.state}${final.text ? `: ${final.text}` : ''}`);
          if (waiting(final)) stopRemote(); // it would wait there for an answer a child cannot give: cancelled
        })()
          .catch((error: unknown) => {
            if (!unsubscribed) end(updates.artifactText, `${who} failed: ${errorMessage(error)}`);
            stopRemote(); // its task is abandoned: cancelled there too (once), and the stream dropped
          })
          .finally(() => clearTimeout(dropLater));
        return () => {
          if (finished) return; // it ended by itself: nothing runs there any more
          unsubscribed = true;
          clearTimeout(idle);
          deltas.close();
          stopRemoteSoon();
        };
      }),
  };
}

/** A task left waiting for the user (input-required, auth-required): still alive on the remote. */
function waiting(end: RemoteEnd): boolean {
  return end.state === 'input-required' || end.state === 'auth-required';
}

function textPart(text: string) {
  return { content: { $case: 'text' as const, value: text }, metadata: undefined, filename: '', mediaType: 'text/plain' };
}
