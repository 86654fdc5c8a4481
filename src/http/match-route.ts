import { isApprovalId } from '../permission/approval-id.js';

/** What a request asks of the runs routes. */
export type RunsRoute =
  | { readonly kind: 'start' }
  | { readonly kind: 'info'; readonly runId: string }
  | { readonly kind: 'events'; readonly runId: string }
  | { readonly kind: 'cancel'; readonly runId: string }
  | { readonly kind: 'approve'; readonly runId: string; readonly approvalId: string }
  | { readonly kind: 'cancel-task'; readonly runId: string; readonly taskId: string }
  /** A run id that cannot be one (`..%2F`, a newline): no such run, without asking the engine. */
  | { readonly kind: 'bad-id'; readonly what: 'run' | 'approval' | 'task'; readonly id: string }
  /** A path of the routes, another method: `405` with `Allow`. */
  | { readonly kind: 'method'; readonly allow: string }
  /** Under `<basePath>/runs`, but no route: `404`. */
  | { readonly kind: 'no-route' };

/** Ids the engine makes (`run_<uuid>`), and any a caller could reasonably pick: nothing that needs escaping anywhere. */
const RUN_ID = /^[A-Za-z0-9_-]{1,128}$/;

/**
 * Matches a request against the routes under `basePath`, or `undefined` when the path is not
 * theirs (it is left to the caller). Path segments are matched before they are decoded, so an
 * encoded `/` or `..` never moves a request to another route; ids are decoded and checked.
 *
 * @example
 * ```ts
 * matchRoute('GET', '/api/runs/run_1/events?after=3', '/api'); // { kind: 'events', runId: 'run_1' }
 * ```
 */
export function matchRoute(method: string | undefined, url: string | undefined, basePath: string): RunsRoute | undefined {
  const path = (url ?? '/').split(/[?#]/, 1)[0]!;
  if (!path.startsWith(basePath)) return undefined;
  const rest = path.slice(basePath.length);
  if (rest !== '/runs' && !rest.startsWith('/runs/')) return undefined;
  const [, , rawRun, section, rawApproval, ...extra] = rest.split('/');
  if (rawRun === undefined) return method === 'POST' ? { kind: 'start' } : { kind: 'method', allow: 'POST' };
  if (extra.length > 0 || rawRun === '') return { kind: 'no-route' };
  const runId = decode(rawRun);
  const badRun = runId === undefined || !RUN_ID.test(runId) ? ({ kind: 'bad-id', what: 'run', id: runId ?? rawRun } as const) : undefined;
  if (section === undefined) {
    if (method !== 'GET' && method !== 'DELETE') return { kind: 'method', allow: 'GET, DELETE' };
    return badRun ?? { kind: method === 'GET' ? 'info' : 'cancel', runId: runId! };
  }
  if (section === 'events' && rawApproval === undefined) {
    return method === 'GET' ? (badRun ?? { kind: 'events', runId: runId! }) : { kind: 'method', allow: 'GET' };
  }
  if (section === 'approvals' && rawApproval !== undefined && rawApproval !== '') {
    if (method !== 'POST') return { kind: 'method', allow: 'POST' };
    if (badRun) return badRun;
    const approvalId = decode(rawApproval);
    if (approvalId === undefined || !isApprovalId(approvalId)) return { kind: 'bad-id', what: 'approval', id: approvalId ?? rawApproval };
    return { kind: 'approve', runId: runId!, approvalId };
  }
  if (section === 'tasks' && rawApproval !== undefined && rawApproval !== '') {
    if (method !== 'DELETE') return { kind: 'method', allow: 'DELETE' };
    if (badRun) return badRun;
    const taskId = decode(rawApproval);
    // A task id is held to the approval id's format: printable ASCII, looked up as it is.
    if (taskId === undefined || !isApprovalId(taskId)) return { kind: 'bad-id', what: 'task', id: taskId ?? rawApproval };
    return { kind: 'cancel-task', runId: runId!, taskId };
  }
  return { kind: 'no-route' };
}

function decode(segment: string): string | undefined {
  try {
    return decodeURIComponent(segment);
  } catch {
    return undefined; // a malformed escape (`%zz`) names nothing
  }
}
