import type { Artifact, Part, StreamResponse, TaskState } from '@a2a-js/sdk';
import type { ReasonDeltaEvent } from '../../events/agent-event.js';
import { partsChars, textOf } from './remote-parts.js';

/** Who the remote child is in our events. */
export interface RemoteRunIds {
  readonly runId: string;
  readonly agentName: string;
}

/** How a remote task ended, once it has. */
export interface RemoteEnd {
  readonly state: 'completed' | 'failed' | 'canceled' | 'rejected' | 'input-required' | 'auth-required';
  /** The final status message's text, if any. */
  readonly text: string;
}

/**
 * The `TaskState` values that end a task for us, by number (the SDK's enum; its module is
 * not loaded until a remote agent runs): completed 3, failed 4, canceled 5, rejected 7, and
 * the states that wait for the user, input-required 6 and auth-required 8 (a child cannot answer).
 */
const ENDS: ReadonlyMap<number, RemoteEnd['state']> = new Map([
  [3, 'completed'],
  [4, 'failed'],
  [5, 'canceled'],
  [7, 'rejected'],
  [6, 'input-required'],
  [8, 'auth-required'],
]);

/**
 * Reads a remote A2A task's stream into our child events: artifact text becomes answer
 * deltas (`ReasonDelta` text; an artifact sent again whole adds only what is new; a task's
 * own artifacts are read as sent whole), status
 * messages become `thinking` deltas (progress), and the terminal state is kept for the
 * run's end. Counts the characters received (file and data parts by their size, see
 * `partsChars`), so the caller can bound them.
 */
export class RemoteUpdates {
  /** The remote task's id, once a task or an update named it. */
  taskId: string | undefined;
  /** The remote task's context id, once a task or an update named it. */
  contextId: string | undefined;
  /**
   * Set when an update named a task or context other than the first one named (an empty id
   * names none): one stream carries one task, so such an update is not taken as this task's
   * (its text, its state) and the caller fails the task instead.
   */
  foreign: string | undefined;
  /**
   * Set when a `message` came after the task's own updates began (the caller fails the task,
   * and cancels it there): A2A streams one message, or one task's lifecycle, never both.
   */
  misplaced: string | undefined;
  /** How the task ended, once a terminal (or waiting) state arrived. */
  end: RemoteEnd | undefined;
  /** Characters of text received so far (with the id of each artifact, kept until the end). */
  chars = 0;
  /** A direct answer (a `message` instead of a task). */
  message: string | undefined;
  readonly #artifacts = new Map<string, string>();
  // A task, status or artifact update came: the stream is a task's lifecycle, not one message.
  #lifecycle = false;

  constructor(private readonly ids: RemoteRunIds) {}

  /** The text of every artifact, in the order they first came. */
  get artifactText(): string {
    return [...this.#artifacts.values()].join('\n\n');
  }

  /** Our events for one response of the stream. */
  of(response: StreamResponse): ReasonDeltaEvent[] {
    const payload = response.payload;
    switch (payload?.$case) {
      case 'task': {
        if (!this.#ours(payload.value.id, payload.value.contextId)) return [];
        this.#lifecycle = true;
        // A task may come with its artifacts (a remote that sends the finished task whole): each read as sent whole.
        const added = (payload.value.artifacts ?? []).flatMap((artifact) => this.#artifact(artifact, false));
        return [...added, ...this.status(payload.value.status?.state, payload.value.status?.message?.parts)];
      }
      case 'statusUpdate':
        if (!this.#ours(payload.value.taskId, payload.value.contextId)) return [];
        this.#lifecycle = true;
        return this.status(payload.value.status?.state, payload.value.status?.message?.parts);
      case 'artifactUpdate': {
        if (!this.#ours(payload.value.taskId, payload.value.contextId)) return [];
        this.#lifecycle = true;
        const artifact = payload.value.artifact;
        return artifact === undefined ? [] : this.#artifact(artifact, payload.value.append);
      }
      case 'message': {
        // A message naming a task or context is held to the stream's one task like any update.
        if (!this.#ours(payload.value.taskId, payload.value.contextId)) return [];
        this.chars += partsChars(payload.value.parts);
        // A2A: a stream is one message, or a task's lifecycle (the task, then its status and
        // artifact updates). A message after the task began is no answer: the task still runs there.
        if (this.#lifecycle) {
          this.misplaced = `it sent a message in the middle of its task${this.taskId === undefined ? '' : ` ${this.taskId}`}, where A2A allows only the task's status and artifact updates`;
          return [];
        }
        const text = textOf(payload.value.parts);
        this.message = text;
        this.end = { state: 'completed', text };
        return text ? [this.delta('text', text)] : [];
      }
      default:
        return [];
    }
  }

  // One artifact's text: appended to what it had, or sent whole (only what is new is a delta).
  #artifact(artifact: Artifact, append: boolean): ReasonDeltaEvent[] {
    const text = textOf(artifact.parts);
    const before = this.#artifacts.get(artifact.artifactId);
    // A new artifact's id is kept (as a key) as long as the task runs: it counts as text, or
    // 25,000 updates of empty artifacts with ids of megabytes each would be kept whole.
    this.chars += partsChars(artifact.parts) + (before === undefined ? artifact.artifactId.length : 0);
    const appended = append && before !== undefined;
    this.#artifacts.set(artifact.artifactId, appended ? before + text : text);
    // An appended chunk is new as it is: comparing it with what came before would copy the
    // whole artifact per chunk (25,000 chunks of 40 characters took minutes of CPU).
    const added = appended || before === undefined ? text : text.startsWith(before) ? text.slice(before.length) : '';
    return added ? [this.delta('text', added)] : [];
  }

  // Records the first ids named; false (and `foreign` set) for an update naming others.
  #ours(taskId: string, contextId: string): boolean {
    if (this.foreign !== undefined) return false;
    if (taskId !== '' && this.taskId !== undefined && taskId !== this.taskId) this.foreign = `task ${taskId} (its task is ${this.taskId})`;
    else if (contextId !== '' && this.contextId !== undefined && contextId !== this.contextId) this.foreign = `context ${contextId} (its task's is ${this.contextId})`;
    if (this.foreign !== undefined) return false;
    if (taskId !== '') this.taskId ??= taskId;
    if (contextId !== '') this.contextId ??= contextId;
    return true;
  }

  private status(state: TaskState | undefined, parts: readonly Part[] | undefined): ReasonDeltaEvent[] {
    const text = textOf(parts);
    this.chars += partsChars(parts);
    const end = state === undefined ? undefined : ENDS.get(state);
    if (end !== undefined) {
      this.end = { state: end, text };
      return [];
    }
    return text ? [this.delta('thinking', `${text}\n`)] : [];
  }

  private delta(kind: 'text' | 'thinking', text: string): ReasonDeltaEvent {
    return { type: 'ReasonDelta', runId: this.ids.runId, agentName: this.ids.agentName, step: 1, kind, text };
  }
}
