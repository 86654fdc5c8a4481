/**
 * The page's script, bundled from `rxharness/client` at build time (esbuild, see
 * scripts/build-page.mjs). Conversations are listed on the side (`listSessions`); one is open
 * at a time, its earlier turns shown above the prompt, and Run continues it (`startRun` with
 * its `sessionId`). A run's id and its conversation go in the address
 * (`?session=<id>&run=<id>`); the page follows the run with `fromRun`, which resumes after
 * the last event it saw when the connection drops, so a reload, a second tab or a lost
 * network all show the same run, and nothing ever starts it twice. The tree, the tool calls,
 * the approvals and the timeline come from one state folded by `reduceTree`, the reducer the
 * terminal tree uses too.
 *
 * @module
 */
import {
  AbortError, answerApproval, cancelRun, cancelTask, createTreeState, fromRun, getSession, listSessions, reduceTree, RunRequestError, settleTree, startRun,
  waitingApprovals, type Subscription, type TaskTreeState,
} from './client-imports.js';
import { ApprovalsView } from './approvals-view.js';
import { ConversationsView } from './conversations-view.js';
import { clipMiddle } from '../../text/clip-middle.js';
import { browser, byId, type DomButton, type DomInput } from './dom.js';
import { showLong } from './long-text.js';
import { TimelineView } from './timeline-view.js';
import { TreeView } from './tree-view.js';
import { NOT_YET, UserInputGate } from './user-input-gate.js';

/** The runs routes, next to the page (`runsHandler` under `/api`). */
const API = new URL('api', browser.location.href).href;

type PageState = 'idle' | 'running' | 'done' | 'failed' | 'cancelled';

/** From the page's first moment: Run and the approval buttons act only after the user's own input on it (double-clickjacking). */
const gate = new UserInputGate(browser, () => browser.performance.now());

const tree = new TreeView(byId('tree'), (taskId) => (runId === undefined ? Promise.resolve() : cancelTask(API, runId, taskId)));
const timeline = new TimelineView(byId('timeline-section'), byId('timeline'), byId('tokens'));
const conversations = new ConversationsView(byId('session-list'), byId('conversations-note'), byId('transcript'), (id) => void openSession(id));
const approvals = new ApprovalsView(
  byId('approvals'),
  byId('approval-list'),
  // By the approval's own id, with its task: a call id is not unique across tasks.
  (approval, decision) => (runId === undefined ? Promise.resolve() : answerApproval(API, runId, { approvalId: approval.approvalId, taskId: approval.taskId }, decision)),
  () => gate.allows(),
  NOT_YET,
);
let run: TaskTreeState = createTreeState();
let runId: string | undefined;
/** The open conversation; `undefined` until the first run of a new one starts. */
let sessionId: string | undefined;
let following: Subscription | undefined;
let clock: ReturnType<typeof setInterval> | undefined;
let drawQueued = false;
/** The result the answer box shows: it is written once, not each frame (it may be megabytes). */
let answered: TaskTreeState['result'];
/** The most characters of a status line (a server's error can be megabytes). */
const MESSAGE_CHARS = 2000;

function draw(): void {
  drawQueued = false;
  const now = Date.now();
  tree.draw(run.root, now);
  timeline.draw(run, now);
  approvals.draw(waitingApprovals(run));
  const result = run.result;
  byId('answer').hidden = result === undefined;
  if (result !== undefined && result !== answered) {
    answered = result;
    byId('answer').classList.toggle('failed', result.abnormal);
    showLong(byId('answer-text'), result.abnormal ? `The run failed: ${result.error}\n\n${result.text}` : result.text);
  }
}

function queueDraw(): void {
  if (drawQueued) return;
  drawQueued = true;
  browser.requestAnimationFrame(draw);
}

function setState(name: PageState, message: string): void {
  browser.document.body.dataset.state = name;
  byId('status').textContent = clipMiddle(message, MESSAGE_CHARS);
  byId<DomButton>('start').disabled = name === 'running';
  byId<DomButton>('stop').disabled = name !== 'running';
}

/** Follows run `id` from its first event, drawing as it goes. */
function follow(id: string): void {
  following?.unsubscribe();
  runId = id;
  clearRun();
  setState('running', 'Running… (closing the page leaves the run going: reopen this address to see it again)');
  following = fromRun(API, id).subscribe({
    next: ({ event }) => {
      // a page opened on `?run=` alone learns the run's conversation from its start
      if (event.type === 'RunStart' && sessionId === undefined) showAddress((sessionId = event.sessionId), id);
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

function finish(name: PageState, given: string): void {
  // once, here: settleTree writes it on every task still going, each row then shows it
  const message = clipMiddle(given, MESSAGE_CHARS);
  clearInterval(clock);
  following = undefined;
  // What still runs ends as the run did: a stopped run's tasks are cancelled, never also failed.
  if (name !== 'done') run = name === 'cancelled' ? settleTree(run, Date.now(), 'stopped', 'cancelled') : settleTree(run, Date.now(), message);
  // Draw now, not on the next frame: once the page says it is done, the tree and the answer
  // already show the end (a queued frame may come later, or never in a hidden tab).
  draw();
  setState(name, message);
  void refreshList();
}

/** Empties the tree, the timeline and the answer. */
function clearRun(): void {
  run = createTreeState();
  answered = undefined;
  tree.clear();
  timeline.clear();
  draw();
}

/** Puts the open conversation and run in the address, so a reload shows them again. */
function showAddress(session: string | undefined, run: string | undefined): void {
  const query = new URLSearchParams();
  if (session !== undefined) query.set('session', session);
  if (run !== undefined) query.set('run', run);
  browser.history.replaceState(null, '', `?${query.toString()}`);
}

/** How many conversations the side lists. */
const CONVERSATIONS_SHOWN = 50;

async function refreshList(): Promise<void> {
  try {
    // The first page only: the most recent conversations (the server pages the rest).
    conversations.drawList(await listSessions(API, { limit: CONVERSATIONS_SHOWN }), sessionId);
  } catch (error) {
    conversations.unavailable(`No conversation list: ${describeFailure(error)}`);
  }
}

/** Opens a conversation: its turns above the prompt, and its run still going, if any, followed. */
async function openSession(id: string, attach?: string): Promise<void> {
  following?.unsubscribe();
  clearInterval(clock);
  sessionId = id;
  runId = undefined;
  clearRun();
  try {
    const details = await getSession(API, id);
    conversations.drawTranscript(details.messages);
    const going = attach ?? details.runs.find((r) => r.state === 'running')?.runId;
    showAddress(id, going);
    if (going !== undefined) follow(going);
    else setState('idle', 'Write the next prompt to continue this conversation.');
  } catch (error) {
    conversations.drawTranscript([]);
    setState('failed', `Could not open the conversation: ${describeFailure(error)}`);
  }
  void refreshList();
}

/** A new conversation: nothing open until its first run starts. */
function newConversation(): void {
  following?.unsubscribe();
  clearInterval(clock);
  sessionId = runId = undefined;
  clearRun();
  conversations.drawTranscript([]);
  showAddress(undefined, undefined);
  setState('idle', 'A new conversation: write its first prompt.');
  void refreshList();
}

async function start(prompt: string): Promise<void> {
  following?.unsubscribe();
  setState('running', 'Starting…');
  try {
    // The turns so far move up into the transcript; this run's tree starts empty.
    if (sessionId !== undefined) conversations.drawTranscript((await getSession(API, sessionId)).messages);
    const started = await startRun(API, { prompt, ...(sessionId === undefined ? {} : { sessionId }) });
    sessionId = started.sessionId;
    showAddress(sessionId, started.runId);
    follow(started.runId);
    void refreshList();
  } catch (error) {
    setState('failed', `Could not start the run: ${describeFailure(error)}`);
  }
}

byId('run-form').addEventListener('submit', (event) => {
  event.preventDefault();
  const prompt = byId<DomInput>('prompt').value.trim();
  if (!gate.allows()) return void (byId('status').textContent = NOT_YET);
  if (prompt) void start(prompt);
});
byId('new-conversation').addEventListener('click', newConversation);
byId('stop').addEventListener('click', () => {
  // the run's stream then ends with an AbortError, which finishes the page as cancelled
  if (runId !== undefined) cancelRun(API, runId).catch((error: unknown) => setState('failed', `Could not cancel: ${String(error)}`));
});

// The address may fill the prompt box, never start a run: any site can open (or link to) this
// page with parameters of its choosing, so only a click on the page's own Run button starts one,
// and only once the user has acted on the page (the gate above). The server drops `prompt` from
// a navigation another site started (serve-request.ts): a link of yours, or a typed address, keeps it.
const params = new URLSearchParams(browser.location.search);
const prompt = params.get('prompt');
if (prompt) byId<DomInput>('prompt').value = prompt;
const attach = params.get('run') ?? undefined;
const openId = params.get('session');
if (openId) void openSession(openId, attach);
else if (attach) follow(attach);
else void refreshList();
