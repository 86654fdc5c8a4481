/**
 * The demo page's script, bundled from `rxharness/client` at build time (esbuild, see
 * scripts/build-page.mjs). Run starts a run on the server (`startRun`) and puts its id in
 * the address (`?run=<id>`); the page follows it with `fromRun`, which resumes after the
 * last event it saw when the connection drops, so a reload, a second tab or a lost network
 * all show the same run, and nothing ever starts it twice. The tree is folded by `reduceTree`,
 * the reducer the terminal tree uses too.
 *
 * @module
 */
import {
  AbortError, answerApproval, cancelRun, createTreeState, fromRun, reduceTree, RunRequestError, settleTree, startRun, waitingApprovals,
  type Subscription, type TaskTreeState,
} from './client-imports.js';
import { ApprovalsView } from './approvals-view.js';
import { browser, byId, type DomButton, type DomInput } from './dom.js';
import { TreeView } from './tree-view.js';

/** The runs routes, next to the page (`runsHandler` under `/api`). */
const API = new URL('api', browser.location.href).href;

type PageState = 'idle' | 'running' | 'done' | 'failed' | 'cancelled';

const tree = new TreeView(byId('tree'));
const approvals = new ApprovalsView(byId('approvals'), byId('approval-list'), (approval, decision) =>
  // By the approval's own id, with its task: a call id is not unique across tasks.
  runId === undefined ? Promise.resolve() : answerApproval(API, runId, { approvalId: approval.approvalId, taskId: approval.taskId }, decision),
);
let run: TaskTreeState = createTreeState();
let runId: string | undefined;
let following: Subscription | undefined;
let clock: ReturnType<typeof setInterval> | undefined;
let drawQueued = false;

function draw(): void {
  drawQueued = false;
  const now = Date.now();
  tree.draw(run.root, now);
  approvals.draw(waitingApprovals(run));
  const result = run.result;
  byId('answer').hidden = result === undefined;
  if (result !== undefined) {
    byId('answer').classList.toggle('failed', result.abnormal);
    byId('answer-text').textContent = result.abnormal ? `The run failed: ${result.error}\n\n${result.text}` : result.text;
  }
}

function queueDraw(): void {
  if (drawQueued) return;
  drawQueued = true;
  browser.requestAnimationFrame(draw);
}

function setState(name: PageState, message: string): void {
  browser.document.body.dataset.state = name;
  byId('status').textContent = message;
  byId<DomButton>('start').disabled = name === 'running';
  byId<DomButton>('stop').disabled = name !== 'running';
}

/** Follows run `id` from its first event, drawing as it goes. */
function follow(id: string): void {
  following?.unsubscribe();
  runId = id;
  run = createTreeState();
  tree.clear();
  setState('running', 'Running… (closing the page leaves the run going: reopen this address to see it again)');
  following = fromRun(API, id).subscribe({
    next: ({ event }) => {
      run = reduceTree(run, event, Date.now());
      queueDraw();
    },
    complete: () => finish(run.result && !run.result.abnormal ? 'done' : 'failed', run.result ? 'Finished.' : 'The run ended without a result.'),
    error: (error: unknown) => {
      if (AbortError.isInstance(error)) return finish('cancelled', 'Cancelled: the run and its tasks were stopped.');
      if (RunRequestError.isInstance(error) && error.status === 404) return finish('failed', `No such run here (it may have been forgotten): ${id}`);
      finish('failed', `Lost the run: ${describeFailure(error)}`);
    },
  });
  clearInterval(clock);
  clock = setInterval(queueDraw, 250); // keeps elapsed times moving between events
}

/** What went wrong, in words; a 401 says how to get the token this server needs. */
function describeFailure(error: unknown): string {
  if (RunRequestError.isInstance(error) && error.status === 401) {
    return 'this page has no token for its server: open the address "rxharness serve" printed (it ends in ?token=...)';
  }
  return error instanceof Error ? error.message : String(error);
}

function finish(name: PageState, message: string): void {
  clearInterval(clock);
  following = undefined;
  // What still runs ends as the run did: a stopped run's tasks are cancelled, never also failed.
  if (name !== 'done') run = name === 'cancelled' ? settleTree(run, Date.now(), 'stopped', 'cancelled') : settleTree(run, Date.now(), message);
  // Draw now, not on the next frame: once the page says it is done, the tree and the answer
  // already show the end (a queued frame may come later, or never in a hidden tab).
  draw();
  setState(name, message);
}

async function start(prompt: string): Promise<void> {
  following?.unsubscribe();
  setState('running', 'Starting…');
  try {
    const started = await startRun(API, { prompt });
    browser.history.replaceState(null, '', `?run=${encodeURIComponent(started.runId)}`);
    follow(started.runId);
  } catch (error) {
    setState('failed', `Could not start the run: ${describeFailure(error)}`);
  }
}

byId('run-form').addEventListener('submit', (event) => {
  event.preventDefault();
  const prompt = byId<DomInput>('prompt').value.trim();
  if (prompt) void start(prompt);
});
byId('stop').addEventListener('click', () => {
  // the run's stream then ends with an AbortError, which finishes the page as cancelled
  if (runId !== undefined) cancelRun(API, runId).catch((error: unknown) => setState('failed', `Could not cancel: ${String(error)}`));
});

// The address may fill the prompt box, never start a run: any site can open (or link to) this
// page with parameters of its choosing, so only a click on the page's own Run button starts one.
const params = new URLSearchParams(browser.location.search);
const prompt = params.get('prompt');
if (prompt) byId<DomInput>('prompt').value = prompt;
const attach = params.get('run');
if (attach) follow(attach);
