import { TaskState } from '@a2a-js/sdk';
import { AgentEvent as A2AEvent, type AgentExecutionEvent } from '@a2a-js/sdk/server';
import type { AgentEvent, TaskWrapEvent } from '../../events/agent-event.js';
import { agentMessage, statusOf, textArtifact } from './a2a-values.js';

/** The artifact the main agent's answer streams into (its deltas appended, replaced by the final text at the end). */
export const ANSWER_ARTIFACT_ID = 'answer';

/** What a sub-agent's update carries in its `metadata.rxharness`: which task of ours it is about. */
export interface A2ASubtaskMetadata {
  /** Our task id (`task_...`). */
  readonly taskId: string;
  /** Its place in a `multitask` (1, 2, ...) or 0 for a `task`. */
  readonly taskIndex: number;
  /** The subagent's name. */
  readonly agentName: string;
  /** The task's description, as the delegating model wrote it. */
  readonly description: string;
  /** What happened: `started`, `finished`, `failed` or `cancelled`. */
  readonly state: 'started' | 'finished' | 'failed' | 'cancelled';
}

/**
 * Turns one run's events into A2A task updates, in order: the main agent's text deltas
 * become chunks of the `answer` artifact; each direct sub-agent's start and end a status
 * message naming it by its task's description (with {@link A2ASubtaskMetadata} under
 * `metadata.rxharness`), and its answer an artifact of its own named by the description;
 * the run's end the final `answer` and a terminal status (`completed`, `failed` or
 * `canceled`) whose message is the answer or the reason. Deeper descendants are summarised
 * by their sub-agent, so a client sees the tree's first level only.
 */
export class RunUpdates {
  #answerStarted = false;

  constructor(
    private readonly taskId: string,
    private readonly contextId: string,
  ) {}

  /** The updates of one event (none for most). */
  of(event: AgentEvent): AgentExecutionEvent[] {
    switch (event.type) {
      case 'ReasonDelta':
        return event.kind === 'text' && event.text !== '' ? [this.answerChunk(event.text)] : [];
      case 'TaskWrap':
        return this.subtask(event);
      case 'RunEnd':
        return event.abnormal
          ? [this.answer(event.text), this.status(TaskState.TASK_STATE_FAILED, `The run failed: ${event.error ?? 'it ended abnormally'}`)]
          : [this.answer(event.text), this.status(TaskState.TASK_STATE_COMPLETED, event.text)];
      case 'RunCancelled':
        return [this.status(TaskState.TASK_STATE_CANCELED, `The run was cancelled: ${event.reason}`)];
      default:
        return [];
    }
  }

  /** A status update of `state` with a message of `text`. */
  status(state: TaskState, text: string, metadata?: Record<string, unknown>): AgentExecutionEvent {
    return A2AEvent.statusUpdate({
      taskId: this.taskId,
      contextId: this.contextId,
      status: statusOf(state, agentMessage(this.taskId, this.contextId, text, metadata)),
      metadata,
    });
  }

  private answerChunk(text: string): AgentExecutionEvent {
    const append = this.#answerStarted;
    this.#answerStarted = true;
    return this.artifact(textArtifact(ANSWER_ARTIFACT_ID, 'answer', 'The answer of the main agent', text), append, false);
  }

  /** The whole answer, replacing the streamed chunks (a step's text that led to tool calls is not part of it). */
  private answer(text: string): AgentExecutionEvent {
    return this.artifact(textArtifact(ANSWER_ARTIFACT_ID, 'answer', 'The answer of the main agent', text), false, true);
  }

  private subtask(wrap: TaskWrapEvent): AgentExecutionEvent[] {
    const inner = wrap.event;
    const name = `${wrap.taskAgentName}${wrap.multitask ? ` #${wrap.taskIndex}` : ''}`;
    const meta = (state: A2ASubtaskMetadata['state']): Record<string, unknown> => ({
      rxharness: { taskId: wrap.taskId, taskIndex: wrap.taskIndex, agentName: wrap.taskAgentName, description: wrap.taskDescription, state } satisfies A2ASubtaskMetadata,
    });
    switch (inner.type) {
      case 'RunStart':
        return [this.status(TaskState.TASK_STATE_WORKING, `Sub-agent ${name} started: ${wrap.taskDescription}`, meta('started'))];
      case 'RunEnd': {
        const state = inner.abnormal ? 'failed' : 'finished';
        const text = inner.abnormal ? `failed: ${inner.error ?? 'it ended abnormally'}` : inner.text;
        return [
          this.artifact(textArtifact(`subtask-${wrap.taskId}`, wrap.taskDescription, `The answer of sub-agent ${name}`, text, meta(state)), false, true),
          this.status(TaskState.TASK_STATE_WORKING, `Sub-agent ${name} ${state}: ${wrap.taskDescription}`, meta(state)),
        ];
      }
      case 'RunCancelled':
        return [this.status(TaskState.TASK_STATE_WORKING, `Sub-agent ${name} was cancelled: ${wrap.taskDescription}`, meta('cancelled'))];
      default:
        return [];
    }
  }

  private artifact(artifact: ReturnType<typeof textArtifact>, append: boolean, lastChunk: boolean): AgentExecutionEvent {
    return A2AEvent.artifactUpdate({ taskId: this.taskId, contextId: this.contextId, artifact, append, lastChunk, metadata: artifact.metadata });
  }
}
