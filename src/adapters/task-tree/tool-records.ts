/**
 * The tool-call history of one tree node: each change returns a new list (the reducer is pure).
 *
 * @module
 */
import type { ApprovalDecidedItem, ApprovalPendingItem, ToolEndItem } from '../ui-item.js';
import { toolLabel } from '../terminal-tree/tool-label.js';
import { RESULT_CHARS, type ToolCallRecord, type ToolCallStatus } from './tree-state.js';

type Records = readonly ToolCallRecord[];

/** The call's end: its result (cut) or error, and its duration. */
export function toolEnded(tools: Records, item: ToolEndItem): Records {
  return change(tools, item.callId, (call) => ({
    ...call,
    status: item.error === undefined ? 'done' : 'failed',
    result: cut(item.text),
    ...(item.error === undefined ? {} : { error: item.error }),
    durationMs: item.durationMs,
  }));
}

/**
 * The call waits for a human; a call whose start was not seen (a stream joined late) is
 * added. Its arguments become the approval's: the checked value the call will run with (a
 * typed tool's schema may add defaults or transform what the model sent, which the start
 * carries), so a card shows what is approved.
 */
export function approvalAsked(tools: Records, item: ApprovalPendingItem): Records {
  const approval = { approvalId: item.approvalId, reason: item.reason };
  const asked = { args: item.args, label: toolLabel(item.toolName, item.args), status: 'waiting', approval } as const;
  if (latest(tools, item.callId) === -1) return [...tools, { callId: item.callId, toolName: item.toolName, step: 0, ...asked }];
  return change(tools, item.callId, (call) => ({ ...call, ...asked }));
}

/** The human's decision; an approved call runs on, a rejected one ends with its `tool-end`. */
export function approvalDecided(tools: Records, item: ApprovalDecidedItem): Records {
  return change(tools, item.callId, (call) => ({
    ...call,
    status: call.status === 'waiting' ? 'running' : call.status,
    approval: {
      approvalId: item.approvalId, reason: call.approval?.reason ?? '', decision: item.decision,
      ...(item.comment === undefined ? {} : { comment: item.comment }), ...(item.timedOut ? { timedOut: true } : {}),
    },
  }));
}

/** Ends the calls still going: their run ended or was stopped before them. */
export function settleTools(tools: Records, status: Extract<ToolCallStatus, 'failed' | 'cancelled'>, reason: string): Records {
  if (!tools.some(going)) return tools;
  return tools.map((call) => (going(call) ? { ...call, status, error: reason } : call));
}

function going(call: ToolCallRecord): boolean {
  return call.status === 'running' || call.status === 'waiting';
}

/** Changes the latest call of that id (a model may reuse an id across steps). */
function change(tools: Records, callId: string, update: (call: ToolCallRecord) => ToolCallRecord): Records {
  const at = latest(tools, callId);
  return at === -1 ? tools : tools.map((call, i) => (i === at ? update(call) : call));
}

function latest(tools: Records, callId: string): number {
  for (let i = tools.length - 1; i >= 0; i -= 1) if (tools[i]!.callId === callId) return i;
  return -1;
}

function cut(text: string): string {
  return text.length <= RESULT_CHARS ? text : `${text.slice(0, RESULT_CHARS)}… (${text.length - RESULT_CHARS} more characters)`;
}
