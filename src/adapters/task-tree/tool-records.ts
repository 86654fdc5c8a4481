/**
 * The tool-call history of one tree node: each change returns new calls (the reducer is
 * pure), which {@link withTools} puts on the node's copy. A node with few calls keeps a plain array, copied per change: cheaper at that
 * size. From {@link SHARED_FROM} calls on, its calls are a {@link ToolList} (its `tools`
 * made on first read), so a change costs O(log n) whatever the node holds, and reads none of it.
 *
 * @module
 */
import type { ApprovalDecidedItem, ApprovalPendingItem, ToolEndItem } from '../ui-item.js';
import { toolLabel } from '../terminal-tree/tool-label.js';
import { visibleLines } from '../../text/visible-text.js';
import { headOf } from '../../text/whole-chars.js';
import { lazySource, withField, withLazy } from './lazy-fields.js';
import { ToolList, waitsForDecision } from './tool-list.js';
import { RESULT_CHARS, type ToolCallRecord, type ToolCallStatus, type TreeNode } from './tree-state.js';

/** A node's calls: a plain array, or (many) a shared list; {@link withTools} puts them on a node. */
export type Tools = readonly ToolCallRecord[] | ToolList;

/** From this many calls a node shares a list instead of copying an array per change. */
export const SHARED_FROM = 64;

/** How many tool calls `node` has (without making its array). */
export function toolCount(node: TreeNode): number {
  return toolsOf(node).length;
}

/** The calls of `node` with one more started (after the others). */
export function toolStarted(node: TreeNode, record: ToolCallRecord): Tools {
  return appended(toolsOf(node), record);
}

/** The calls of `node` with the call's end: its result or error (each cut and marked: see {@link kept}), and its duration. */
export function toolEnded(node: TreeNode, item: ToolEndItem): Tools {
  return change(node, item.callId, (call) => ({
    ...call,
    status: item.error === undefined ? 'done' : 'failed',
    result: kept(item.text),
    ...(item.error === undefined ? {} : { error: kept(item.error) }),
    durationMs: item.durationMs,
  }));
}

/**
 * The call waits for a human; a call whose start was not seen (a stream joined late) is
 * added. Its arguments become the approval's: the checked value the call will run with (a
 * typed tool's schema may add defaults or transform what the model sent, which the start
 * carries), so a card shows what is approved.
 */
export function approvalAsked(node: TreeNode, item: ApprovalPendingItem): Tools {
  const approval = { approvalId: item.approvalId, reason: item.reason };
  const asked = { args: item.args, label: toolLabel(item.toolName, item.args), status: 'waiting', approval } as const;
  const tools = toolsOf(node);
  if (latest(tools, item.callId) === -1) return appended(tools, { callId: item.callId, toolName: item.toolName, step: 0, ...asked });
  return change(node, item.callId, (call) => ({ ...call, ...asked }));
}

/** The human's decision; an approved call runs on, a rejected one ends with its `tool-end`. */
export function approvalDecided(node: TreeNode, item: ApprovalDecidedItem): Tools {
  return change(node, item.callId, (call) => ({
    ...call,
    status: call.status === 'waiting' ? 'running' : call.status,
    approval: {
      approvalId: item.approvalId, reason: call.approval?.reason ?? '', decision: item.decision,
      ...(item.comment === undefined ? {} : { comment: item.comment }), ...(item.timedOut ? { timedOut: true } : {}),
    },
  }));
}

/** The calls of `node` with those still going ended: their run ended or was stopped before them. */
export function toolsSettled(node: TreeNode, status: Extract<ToolCallStatus, 'failed' | 'cancelled'>, reason: string): Tools {
  return settledCalls(toolsOf(node), status, reason);
}

/** `tools` with the calls still going ended as `status`, with `reason` (`tools` itself when none goes). */
function settledCalls(tools: Tools, status: Extract<ToolCallStatus, 'failed' | 'cancelled'>, reason: string): Tools {
  const settle = (call: ToolCallRecord): ToolCallRecord => ({ ...call, status, error: reason });
  if (tools instanceof ToolList) return tools.settled(settle);
  if (!tools.some(going)) return tools;
  return tools.map((call) => (going(call) ? settle(call) : call));
}

/** The calls of `node`: its shared list, without making its array, or its plain array. */
function toolsOf(node: TreeNode): Tools {
  const source = lazySource(node, 'tools');
  return source instanceof ToolList ? source : node.tools;
}

/** Why a call told to a node after its end (its start, an approval asked) was ended at once. */
export const LATE_CALL = 'came after its run had ended';

/**
 * A copy of `node` with `tools`, and the counts a view reads instead of them (`toolCallCount`,
 * `waitingApprovalCount`, and `waitingInSubtree` moved by as much); a shared list stays one (made into an array on first read). Every
 * change of a node's calls comes through here, so the counts always describe its calls: they
 * are taken from the calls themselves, never adjusted by a difference a stale count would keep.
 *
 * A node that has ended (done, failed, cancelled) has nothing going: a call still going in
 * `tools` is one told of after the end (a stream's late approval request or start), which no
 * one will finish nor answer, so it is ended here, `failed` (`cancelled` in a cancelled node)
 * with {@link LATE_CALL}: kept, with its approval, but no card waits on it forever.
 */
export function withTools(node: TreeNode, given: Tools): TreeNode {
  const tools = node.status === 'running' || node.status === 'queued' ? given : settledCalls(given, node.status === 'cancelled' ? 'cancelled' : 'failed', LATE_CALL);
  const copy = tools instanceof ToolList ? withLazy(node, 'tools', tools) : withField(node, 'tools', tools);
  const waiting = waitingIn(tools);
  // what waits below it is as it was: only its own calls changed
  const waitingInSubtree = node.waitingInSubtree === undefined ? undefined : node.waitingInSubtree - node.waitingApprovalCount + waiting;
  // a copy made just above and seen by no one yet: set in place, so its lazy `tools` stays unread
  return Object.assign(copy, { toolCallCount: tools.length, waitingApprovalCount: waiting, waitingInSubtree });
}

/**
 * The calls of `node` waiting for a human's decision, in order, without making its array:
 * a node with none (its `waitingApprovalCount` 0) costs nothing, one with some in a shared
 * list costs those only. A node whose count is missing (made by hand) has its calls read.
 */
export function waitingCalls(node: TreeNode): ToolCallRecord[] {
  if (node.waitingApprovalCount === 0) return [];
  const tools = toolsOf(node);
  if (tools instanceof ToolList) return tools.waitingPositions().map((i) => tools.at(i)!);
  return tools.filter(waitsForDecision);
}

/** How many of `tools` wait for a decision: the shared list knows; a plain array (few calls) is counted. */
function waitingIn(tools: Tools): number {
  if (tools instanceof ToolList) return tools.waitingCount;
  let count = 0;
  for (const call of tools) if (waitsForDecision(call)) count += 1;
  return count;
}

function appended(tools: Tools, record: ToolCallRecord): Tools {
  if (tools instanceof ToolList) return tools.appended(record);
  return tools.length + 1 < SHARED_FROM ? [...tools, record] : ToolList.of(tools).appended(record);
}

function going(call: ToolCallRecord): boolean {
  return call.status === 'running' || call.status === 'waiting';
}

/** The calls of `node` with the latest call of that id (a model may reuse an id across steps) changed. */
function change(node: TreeNode, callId: string, update: (call: ToolCallRecord) => ToolCallRecord): Tools {
  const before = toolsOf(node);
  // a plain array of many (a tree made elsewhere) becomes a shared list: its next changes then cost little
  const tools = before instanceof ToolList || before.length < SHARED_FROM ? before : ToolList.of(before);
  const at = latest(tools, callId);
  if (at === -1) return before;
  if (tools instanceof ToolList) return tools.replaced(at, update(tools.at(at)!));
  return tools.map((call, i) => (i === at ? update(call) : call));
}

function latest(tools: Tools, callId: string): number {
  if (tools instanceof ToolList) return tools.latest(callId);
  for (let i = tools.length - 1; i >= 0; i -= 1) if (tools[i]!.callId === callId) return i;
  return -1;
}

/**
 * A tool's result or error as a record keeps it: marked as the tree's other texts are
 * (`<U+001B>`), lines and tabs kept (`visibleLines`), since the page draws it as it is and an escape
 * sequence or a bidi override in it (`\u202Eexe.txt` reads `txt.exe`) would hide or turn around
 * what it says; marked here, not on the page, as the reasons a settle writes as errors are
 * marked already (marked twice, their marks would garble). Cut to {@link RESULT_CHARS}, never
 * inside a character: a text may be megabytes (a file read, an unknown tool's made-up name),
 * and marking costs per marked character, so only the start kept is marked.
 */
function kept(text: string): string {
  const head = headOf(text, RESULT_CHARS);
  // Tabs shown as tabs (harmless on a page or a terminal; code and tables are full of them):
  // every `<U+0009>` marked is one, as a `<U+` the text spells is marked as `<U+003C>U+`.
  const marked = visibleLines(head).join('\n').replaceAll('<U+0009>', '\t');
  return head.length === text.length ? marked : `${marked}… (${text.length - head.length} more characters)`;
}
