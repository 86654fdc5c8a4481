import { randomUUID } from 'node:crypto';
import { Role, TaskState, type Artifact, type Message, type Part, type TaskStatus } from '@a2a-js/sdk';

/** A text part of a message or an artifact, as the SDK's v1.0 types spell it. */
export function textPart(text: string): Part {
  return { content: { $case: 'text', value: text }, metadata: undefined, filename: '', mediaType: 'text/plain' };
}

/** The text of a message's or an artifact's parts (text parts only; files and data are not read), joined. */
export function partsText(parts: readonly Part[] | undefined): string {
  return (parts ?? []).flatMap((part) => (part.content?.$case === 'text' ? [part.content.value] : [])).join('');
}

/** An agent message of one text part in a task. */
export function agentMessage(taskId: string, contextId: string, text: string, metadata?: Record<string, unknown>): Message {
  return { messageId: randomUUID(), contextId, taskId, role: Role.ROLE_AGENT, parts: [textPart(text)], metadata, extensions: [], referenceTaskIds: [] };
}

/** A task status now, with an optional message. */
export function statusOf(state: TaskState, message?: Message): TaskStatus {
  return { state, message, timestamp: new Date().toISOString() };
}

/** An artifact of one text part. */
export function textArtifact(artifactId: string, name: string, description: string, text: string, metadata?: Record<string, unknown>): Artifact {
  return { artifactId, name, description, parts: [textPart(text)], metadata, extensions: [] };
}

/** The states after which a task changes no more. */
export const TERMINAL_STATES: ReadonlySet<TaskState> = new Set([
  TaskState.TASK_STATE_COMPLETED,
  TaskState.TASK_STATE_FAILED,
  TaskState.TASK_STATE_CANCELED,
  TaskState.TASK_STATE_REJECTED,
]);
