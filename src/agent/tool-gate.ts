import { randomUUID } from 'node:crypto';
import { catchError, defer, from, isObservable, map, type Observable, of, switchMap } from 'rxjs';
import type { AgentEvent } from '../events/agent-event.js';
import type { JsonValue } from '../events/json.js';
import { errorMessage } from '../errors/error-message.js';
import type { ApprovalDecision } from '../permission/approval.js';
import type { PermissionDecision } from '../permission/permission-decision.js';
import { quoted } from '../permission/quoted.js';
import type { Tool } from '../tools/tool.js';
import { toolError } from '../tools/tool-error.js';
import { pathRefusalText } from '../tools/path-refusal.js';
import { resolveWorkspacePath } from '../tools/workspace-path.js';
import { isPlainJson } from './plain-json.js';
import { askWithDeadline, describeDuration } from './approval-deadline.js';
import type { RunScope } from './run-scope.js';

/**
 * Whether a call may run; when not, what the model and `ToolCallEnd.error` say. An allowed
 * call of a tool with `paths` carries them as the gate judged them (resolved, subject form):
 * what the rules allowed or a human approved, handed to the tool (`ToolContext.judgedPaths`).
 */
export type Verdict =
  | { readonly allowed: true; readonly paths?: readonly string[] }
  | { readonly allowed: false; readonly text: string; readonly error: string };

const ALLOWED: Verdict = { allowed: true };

/** How many identical calls in a row make the doom-loop guard ask (opencode's number). */
export const DOOM_LOOP_REPEATS = 3;

/** The call a gate judges. */
export interface GateCall {
  readonly tool: Tool;
  readonly args: Record<string, unknown>;
  /**
   * The arguments as the model sent them (parsed JSON): what `HITLPending` and the approval
   * request show when `args`, what the tool's schema made of them, is no plain JSON (a
   * transform to a `BigInt`, a `Map`); `args` are shown otherwise (defaults filled in).
   */
  readonly sent?: JsonValue;
  readonly callId: string;
  readonly signal: AbortSignal;
  readonly emit: (event: AgentEvent) => void;
  /** Set when the same call (tool and arguments) came this many times in a row: the doom-loop guard asks. */
  readonly repeated?: number;
}

/**
 * Decides whether one tool call may run: workspace confinement first (only an explicit allow
 * rule lets a path out), then the permission rules, then, for `ask` (or a call repeated
 * {@link DOOM_LOOP_REPEATS} times in a row, whatever the rules allow), a remembered grant or
 * the approval handler, with `HITLPending` / `HITLDecided` emitted around it. The verdict
 * itself when the rules decide at once (most calls: no stream to subscribe, issue 28), else
 * the stream of it (paths to resolve, a human to ask). Throws what the tool's `subject` throws.
 */
export function gate(scope: RunScope, call: GateCall): Verdict | Observable<Verdict> {
  const { tool } = call;
  if (tool.paths || tool.subjects) {
    const found$ = tool.paths ? confine$(scope, call) : subjects$(scope, call);
    return found$.pipe(
      switchMap((found) => {
        if ('denied' in found) return of(found.denied);
        const verdict = judge(scope, call, found);
        const paths = found.paths;
        if (paths === undefined) return isObservable(verdict) ? verdict : of(verdict);
        return (isObservable(verdict) ? verdict : of(verdict)).pipe(map((v) => (v.allowed ? { allowed: true as const, paths } : v)));
      }),
    );
  }
  return judge(scope, call, { subject: tool.subject?.(call.args) });
}

/** What the gate judges a call under: its subject, and what its subjects were judged already (a tool's `subjects`). */
interface Found {
  readonly subject: string | undefined;
  readonly decision?: PermissionDecision;
  /** The subjects an "always" answer grants, each on its own (absent: `subject`). */
  readonly grants?: readonly string[];
  /** A `paths` tool's paths, resolved: what an allowed call hands the tool ({@link Verdict}). */
  readonly paths?: readonly string[];
}

/** The rules' verdict on a call under its subject, or the approval to ask for. */
function judge(scope: RunScope, call: GateCall, found: Found): Verdict | Observable<Verdict> {
  const decision = found.decision ?? scope.agent.permissions.evaluate(call.tool.name, found.subject, { workspace: scope.agent.workspace });
  if (decision.action === 'deny') return refuse(`Permission denied: ${decision.reason}`);
  // opencode's doom-loop guard: the same call again and again asks a human, whatever the rules allow.
  if (call.repeated !== undefined) {
    return ask$(scope, call, `the same ${call.tool.name} call with the same arguments ${call.repeated} times in a row (a loop?)`, found);
  }
  if (decision.action === 'allow') return ALLOWED;
  // Several subjects were each looked up already: their joined text is no subject to look up.
  if (!found.grants && scope.agent.grants.has(scope.rootSessionId, call.tool.name, found.subject)) return ALLOWED;
  return ask$(scope, call, decision.reason, found);
}

type Confined = Found | { readonly denied: Verdict };

/** A tool with several subjects (an MCP tool's paths): each judged, see {@link judgeSubjects}. */
function subjects$(scope: RunScope, call: GateCall): Observable<Confined> {
  return defer(() => Promise.resolve(call.tool.subjects!(call.args, scope.agent.workspace))).pipe(
    map((subjects): Confined => {
      // Nothing to judge one by one (no path given): the call is judged as one without a
      // subject, so rules for the whole tool still hold.
      if (subjects.length === 0) return { subject: undefined };
      const judged = judgeSubjects(scope, call.tool.name, subjects);
      return 'denied' in judged ? { denied: refuse(`Permission denied: ${judged.denied.reason}`) } : judged;
    }),
  );
}

/** How several subjects of one call were judged: denied (the subject and its decision), or the subject and decision the gate goes on with. */
type SubjectsJudged = { readonly denied: PermissionDecision; readonly subject: string } | (Found & { readonly decision: PermissionDecision });

/**
 * Judges every subject of a call (a tool's `subjects`) under the agent's rules: a deny of
 * any denies the call (its reason); else those that ask and are not granted for this
 * conversation make the call ask, about them together (one subject, joined by `, `, for the
 * human to read; an "always" grants each of them, never the joined text, which a later call's
 * single subject could spell); else the call is allowed, under its first subject.
 *
 * @example
 * ```ts
 * judgeSubjects(scope, 'mcp__fs__move_file', ['notes/a.txt', 'secret/key']); // { denied: { action: 'deny', ... }, subject: 'secret/key' }
 * ```
 */
function judgeSubjects(scope: RunScope, toolName: string, subjects: readonly string[]): SubjectsJudged {
  const { permissions, grants } = scope.agent;
  const asking: { subject: string; reason: string }[] = [];
  for (const subject of new Set(subjects)) {
    const decision = permissions.evaluate(toolName, subject);
    if (decision.action === 'deny') return { denied: decision, subject };
    if (decision.action === 'ask' && !grants.has(scope.rootSessionId, toolName, subject)) asking.push({ subject, reason: decision.reason });
  }
  if (asking.length === 0) return { subject: subjects[0], decision: { action: 'allow', reason: `every path of the ${toolName} call is allowed` } };
  // Each subject is the model's: quoted, so a `; ` or a line break in one cannot pass for the harness's words.
  const reason = asking.length === 1 ? asking[0]!.reason : asking.map((a) => `${quoted(a.subject)}: ${a.reason}`).join('; ');
  const asked = asking.map((a) => a.subject);
  return { subject: asked.join(', '), decision: { action: 'ask', reason }, grants: asked };
}

function confine$(scope: RunScope, call: GateCall): Observable<Confined> {
  const paths = call.tool.paths!(call.args);
  const toolName = call.tool.name;
  const { workspace, permissions } = scope.agent;
  return defer(async (): Promise<Confined> => {
    const resolved = await Promise.all(paths.map((p) => resolveWorkspacePath(workspace, p)));
    // The tool's own run-time refusal, word for word (the link on the way, how the user allows
    // it), naming the rule that denies when one does: the gate knows it, the tool does not.
    const refused = async (at: number, denial?: PermissionDecision): Promise<Confined> => ({
      denied: refuse(await pathRefusalText(workspace, toolName, paths[at]!, resolved[at]!, denial)),
    });
    for (const [at, r] of resolved.entries()) {
      if (r.inside) continue;
      // The rules read once: allowed, or the deny that keeps it out, whatever its priority (an
      // allow may outrank it and match): named, the advice is about it; none, about the missing allow rule.
      const outside = permissions.outsideWorkspace(toolName, r.absolute);
      if (!outside.allowed) return refused(at, outside.denial);
    }
    const judgedPaths = resolved.map((r) => r.relative);
    if (judgedPaths.length === 0) return { subject: undefined, paths: judgedPaths };
    if (judgedPaths.length === 1) {
      const decision = permissions.evaluate(toolName, judgedPaths[0], { workspace });
      return decision.action === 'deny' ? refused(0, decision) : { subject: judgedPaths[0], decision, paths: judgedPaths };
    }
    // Every path the call touches is judged (a move's destination as much as its source):
    // a rule on any of them holds, and an "always" grants each path asked about.
    const judged = judgeSubjects(scope, toolName, judgedPaths);
    return 'denied' in judged ? refused(judgedPaths.indexOf(judged.subject), judged.denied) : { ...judged, paths: judgedPaths };
  });
}

function ask$(scope: RunScope, call: GateCall, reason: string, found: Found): Observable<Verdict> {
  const { agent, run } = scope;
  // The model's call id is not unique (two tasks' models may both say `call_0`): answers name this id.
  const approvalId = `approval_${randomUUID()}`;
  const base = { runId: run.runId, agentName: run.agentName, approvalId, callId: call.callId, toolName: call.tool.name };
  // What the human approves is what will run (a schema's default filled in), as long as it is
  // plain JSON every consumer can write and read; else what the model sent (a transform to a
  // BigInt or a Map would break an event stream, or show as `{}`).
  const args = isPlainJson(call.args) ? call.args : (call.sent ?? (call.args as JsonValue));
  call.emit({ type: 'HITLPending', ...base, args, reason });
  const decided = (decision: ApprovalDecision): Verdict => {
    const approved = decision.decision !== 'reject';
    const comment = decision.comment;
    call.emit({ type: 'HITLDecided', ...base, decision: approved ? 'approve' : 'reject', ...(comment ? { comment } : {}) });
    if (decision.decision === 'always') {
      for (const subject of found.grants ?? [found.subject]) agent.grants.grant(scope.rootSessionId, call.tool.name, subject);
    }
    if (approved) return ALLOWED;
    const said = comment ? `: ${comment}${/[.!?]$/.test(comment) ? '' : '.'}` : '.';
    return refuse(`The ${call.tool.name} call was rejected${said} Do not retry it unchanged.`);
  };
  const timedOut = (timeoutMs: number): Verdict => {
    const comment = `timed out waiting for approval: nobody answered within ${describeDuration(timeoutMs)}`;
    call.emit({ type: 'HITLDecided', ...base, decision: 'reject', comment, timedOut: true });
    return refuse(`The ${call.tool.name} call did not run: it ${comment}. Go on without it, or ask the user to run it.`);
  };
  if (agent.task?.background) {
    return of(decided({ decision: 'reject', comment: 'a background task cannot ask for approval (fail-closed)' }));
  }
  const approve = agent.approve;
  if (!approve) {
    return of(decided({ decision: 'reject', comment: 'no approval handler is configured (fail-closed)' }));
  }
  const request = { ...base, sessionId: run.sessionId, args, reason, ...(agent.task ? { taskId: agent.task.taskId, ...(agent.task.label ? { taskLabel: agent.task.label } : {}) } : {}), rootRunId: scope.rootRunId };
  const timeoutMs = agent.approvalTimeoutMs;
  return defer(() => from(askWithDeadline(approve, request, call.signal, timeoutMs))).pipe(
    map((outcome) => ('timedOut' in outcome ? timedOut(timeoutMs!) : decided(validDecision(outcome.answer)))),
    catchError((e: unknown) =>
      of(decided({ decision: 'reject', comment: `the approval handler failed: ${errorMessage(e)} (fail-closed)` })),
    ),
  );
}

/** Only `{ decision, comment?: string }` counts; anything else rejects (fail-closed). */
function validDecision(answer: unknown): ApprovalDecision {
  const d = answer as Partial<ApprovalDecision> | undefined;
  const known = d?.decision === 'approve' || d?.decision === 'reject' || d?.decision === 'always';
  if (known && (d.comment === undefined || typeof d.comment === 'string')) return d as ApprovalDecision;
  return { decision: 'reject', comment: `the approval handler answered ${JSON.stringify(answer)}, not a decision (fail-closed)` };
}

/** Like every failed call, a refusal reads `ERROR: ...`, so the model cannot take it for tool output. */
function refuse(reason: string): Verdict {
  return { allowed: false, ...toolError(reason) };
}
