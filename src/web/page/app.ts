/**
 * The page's script, bundled from `rxharness/client` at build time (esbuild, see
 * scripts/build-page.mjs). Conversations are listed on the side and continued by Run
 * (conversation-control.ts); a run's id and its conversation go in the address
 * (`?session=<id>&run=<id>`, page-address.ts) and the page follows the run without ever
 * starting it twice (run-follower.ts); the tree, the tool calls, the approvals and the
 * timeline are drawn from one state (run-display.ts). This file builds those parts on the
 * page's elements, wires its buttons, and opens what the address names.
 *
 * @module
 */
import { answerApproval, cancelRun, cancelTask } from './client-imports.js';
import { ApprovalsView } from './approvals-view.js';
import { ConversationControl } from './conversation-control.js';
import { ConversationsView } from './conversations-view.js';
import { browser, byId, type DomInput } from './dom.js';
import { readAddress } from './page-address.js';
import { setState } from './page-status.js';
import { RunDisplay } from './run-display.js';
import { TimelineView } from './timeline-view.js';
import { TreeView } from './tree-view.js';
import { NOT_YET, UserInputGate } from './user-input-gate.js';

/** The runs routes, next to the page (`runsHandler` under `/api`). */
const API = new URL('api', browser.location.href).href;

/** From the page's first moment: Run and the approval buttons act only after the user's own input on it (double-clickjacking). */
const gate = new UserInputGate(browser, () => browser.performance.now());

/** Acts on the run the page shows; with none, does nothing. */
function onRun(act: (runId: string) => Promise<void>): Promise<void> {
  const runId = control.runId;
  return runId === undefined ? Promise.resolve() : act(runId);
}

const tree = new TreeView(byId('tree'), (taskId) => onRun((runId) => cancelTask(API, runId, taskId)));
const timeline = new TimelineView(byId('timeline-section'), byId('timeline'), byId('tokens'));
const conversations = new ConversationsView(byId('session-list'), byId('conversations-note'), byId('transcript'), (id) => void control.openSession(id));
const approvals = new ApprovalsView(
  byId('approvals'),
  byId('approval-list'),
  // By the approval's own id, with its task: a call id is not unique across tasks.
  (approval, decision) => onRun((runId) => answerApproval(API, runId, { approvalId: approval.approvalId, taskId: approval.taskId }, decision)),
  () => gate.allows(),
  NOT_YET,
);
// What is above the cards and the tree changing size moves them under a resting pointer: the
// header (the status line wrapping, the earlier turns shown) both, the cards' section (a card
// came or went, the section opened or closed) the tree. Their buttons then wait SETTLE_MS.
const header = byId('top');
const moves = new browser.ResizeObserver((entries) => {
  if (entries.some((entry) => entry.target === header)) approvals.moved();
  tree.moved();
});
moves.observe(header);
moves.observe(byId('approvals'));
const control = new ConversationControl(API, new RunDisplay(tree, timeline, approvals), conversations);

byId('run-form').addEventListener('submit', (event) => {
  event.preventDefault();
  const prompt = byId<DomInput>('prompt').value.trim();
  if (!gate.allows()) return void (byId('status').textContent = NOT_YET);
  if (prompt) void control.start(prompt);
});
byId('new-conversation').addEventListener('click', () => control.newConversation());
byId('stop').addEventListener('click', () => {
  // the run's stream then ends with an AbortError, which finishes the page as cancelled
  const runId = control.runId;
  if (runId !== undefined) cancelRun(API, runId).catch((error: unknown) => setState('failed', `Could not cancel: ${String(error)}`));
});

// The address may fill the prompt box, never start a run: any site can open (or link to) this
// page with parameters of its choosing, so only a click on the page's own Run button starts one,
// and only once the user has acted on the page (the gate above). The server drops `prompt` from
// a navigation another site started (serve-request.ts): a link of yours, or a typed address, keeps it.
const address = readAddress();
if (address.prompt) byId<DomInput>('prompt').value = address.prompt;
const attach = address.run ?? undefined;
if (address.session) void control.openSession(address.session, attach);
else if (attach) control.follow(attach);
else void control.refreshList();
