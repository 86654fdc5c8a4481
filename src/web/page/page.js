// The demo page's script (plain browser JavaScript, no build step). It streams one run from
// /events over an EventSource and folds the events into a tree the way rxharness's
// `reduceTree` does: TaskWrap events are unwrapped, and each task is keyed by
// parentRunId + taskId (never by agent name, which repeats across tasks).
'use strict';

const TAIL_CHARS = 120;
const MAIN_ARGUMENTS = ['command', 'path', 'pattern', 'url', 'agent_name', 'description'];
const ICONS = { running: '◐', done: '✔', failed: '✖' };
const $ = (id) => document.getElementById(id);

let source = null;
let state = null;
let drawQueued = false;
let clock = null;
const views = new Map();

function newNode(key, agent, description, taskIndex) {
  return { key, agent, description, taskIndex, status: 'running', tool: '', tail: '', error: '', tokens: null, durationMs: null, startedAt: Date.now(), endedAt: null, children: [] };
}

function unwrap(event) {
  const path = [];
  while (event.type === 'TaskWrap') {
    path.push(event);
    event = event.event;
  }
  return { event, path };
}

/** The node a wrapped event belongs to, created on first sight. */
function nodeFor(event, path) {
  if (!state.root) state.root = newNode(path.length ? path[0].parentRunId : event.runId, path.length ? 'run' : event.agentName, '', null);
  let node = state.root;
  for (const frame of path) {
    const key = frame.parentRunId + '/' + frame.taskId;
    let child = node.children.find((c) => c.key === key);
    if (!child) {
      child = newNode(key, frame.taskAgentName, oneLine(frame.taskDescription), frame.taskIndex);
      node.children.push(child);
    }
    node = child;
  }
  return node;
}

function apply(wrapped) {
  const { event, path } = unwrap(wrapped);
  const node = nodeFor(event, path);
  switch (event.type) {
    case 'RunStart':
      Object.assign(node, { agent: event.agentName, status: 'running', tail: '', tool: '', error: '', startedAt: Date.now(), endedAt: null });
      if (path.length === 0) node.description = oneLine(event.prompt);
      break;
    // The last step's text stays until the next step streams some: no flicker to empty.
    case 'ReasonStart': node.freshStep = true; break;
    case 'ReasonDelta':
      if (event.kind !== 'text') break;
      node.tail = clip((node.freshStep ? '' : node.tail) + event.text);
      node.freshStep = false;
      break;
    case 'ToolCallStart': node.tool = toolLabel(event.toolName, event.args); break;
    case 'ToolCallEnd': node.tool = ''; break;
    case 'HITLPending': node.tool = 'waiting for approval: ' + event.toolName; break;
    case 'HITLDecided': node.tool = ''; break;
    case 'RunEnd':
      Object.assign(node, { status: event.abnormal ? 'failed' : 'done', tool: '', error: event.error || '', tokens: event.metrics.totalTokens, durationMs: event.metrics.durationMs });
      if (event.text) node.tail = clip(event.text);
      settle(node.children, 'ended without a result');
      if (path.length === 0) state.result = { text: event.text, abnormal: event.abnormal, error: event.error || '' };
      break;
  }
}

/** Marks runs that will never send their RunEnd (the stream stopped) as failed. */
function settle(nodes, reason) {
  for (const node of nodes) {
    if (node.status === 'running') Object.assign(node, { status: 'failed', tool: '', error: reason, endedAt: Date.now() });
    settle(node.children, reason);
  }
}

function toolLabel(name, args) {
  if (!args || typeof args !== 'object' || Array.isArray(args)) return name;
  if (Array.isArray(args.tasks)) return name + ' ×' + args.tasks.length;
  const key = MAIN_ARGUMENTS.find((k) => typeof args[k] === 'string' && args[k] !== '');
  return key ? name + ' ' + oneLine(args[key]).slice(0, 60) : name;
}

/** The end of a text on one line, marked when cut. */
function clip(text) {
  const line = String(text).replace(/\s+/g, ' '); // no trim: streamed deltas end and start with spaces
  return line.length > TAIL_CHARS ? '…' + line.slice(1 - TAIL_CHARS) : line;
}

function oneLine(text) {
  return String(text).replace(/\s+/g, ' ').trim();
}

function el(tag, className) {
  const element = document.createElement(tag);
  element.className = className;
  return element;
}

/** Sets text only when it changed (textContent: model output is never parsed as HTML); empty hides the line. */
function show(element, text) {
  if (element.textContent !== text) element.textContent = text;
  element.hidden = text === '';
}

/**
 * One <li> per node, created once and then updated in place, so elements stay put while the
 * run streams (readable, selectable, and stable for assistive technology and tests).
 */
function viewFor(node, isTask) {
  let view = views.get(node.key);
  if (!view) {
    view = { li: el('li', isTask ? 'node task' : 'node root'), row: el('div', 'row'), icon: el('span', 'icon'), agent: el('span', 'agent'),
      desc: el('span', 'desc'), status: el('span', 'status-text'), meta: el('span', 'meta'), tool: el('div', 'tool'),
      error: el('div', 'error'), tail: el('div', 'tail'), children: el('ul', 'children') };
    view.li.dataset.key = node.key;
    view.row.append(view.icon, view.agent, view.desc, view.status, view.meta);
    view.li.append(view.row, view.tool, view.error, view.tail, view.children);
    views.set(node.key, view);
  }
  return view;
}

function renderNode(node, isTask, list) {
  const view = viewFor(node, isTask);
  if (view.li.dataset.status !== node.status) view.li.dataset.status = node.status;
  view.li.dataset.agent = node.agent;
  const elapsed = node.durationMs ?? ((node.endedAt ?? Date.now()) - node.startedAt);
  show(view.icon, ICONS[node.status]);
  show(view.agent, node.agent + (isTask ? ' #' + node.taskIndex : ''));
  show(view.desc, node.description);
  show(view.status, node.status);
  show(view.meta, (elapsed / 1000).toFixed(1) + 's' + (node.tokens === null ? '' : ' · ' + node.tokens.toLocaleString('en-US') + ' tok'));
  show(view.tool, node.tool ? '⚙ ' + node.tool : '');
  show(view.error, node.error);
  show(view.tail, node.tail);
  view.children.hidden = node.children.length === 0;
  for (const child of node.children) renderNode(child, true, view.children);
  if (view.li.parentNode !== list) list.append(view.li);
}

function draw() {
  drawQueued = false;
  if (state && state.root) renderNode(state.root, false, $('tree'));
  const result = state && state.result;
  $('answer').hidden = !result;
  if (result) {
    $('answer').classList.toggle('failed', result.abnormal);
    $('answer-text').textContent = result.abnormal ? 'The run failed: ' + result.error + '\n\n' + result.text : result.text;
  }
}

function queueDraw() {
  if (drawQueued) return;
  drawQueued = true;
  requestAnimationFrame(draw);
}

function setState(name, message) {
  document.body.dataset.state = name;
  $('status').textContent = message;
  $('start').disabled = name === 'running';
  $('stop').disabled = name !== 'running';
}

function start(prompt) {
  stop('cancelled');
  state = { root: null, result: null };
  views.clear();
  $('tree').replaceChildren();
  setState('running', 'Running…');
  source = new EventSource('/events?prompt=' + encodeURIComponent(prompt));
  source.onmessage = (message) => {
    apply(JSON.parse(message.data));
    queueDraw();
  };
  // Close on both: an EventSource left open reconnects, which would start a new run.
  source.addEventListener('end', () => finish(state.result && !state.result.abnormal ? 'done' : 'failed', state.result ? 'Finished.' : 'The run ended without a result.'));
  source.addEventListener('error', (event) => {
    const failure = event.data ? JSON.parse(event.data) : null;
    finish('failed', failure ? 'The run failed: ' + failure.message : 'Lost the connection to the server.');
  });
  clearInterval(clock);
  clock = setInterval(queueDraw, 250); // keeps elapsed times moving between events
}

function finish(name, message) {
  if (!source) return;
  source.close();
  source = null;
  clearInterval(clock);
  if (state.root && name !== 'done') settle([state.root], name === 'cancelled' ? 'cancelled' : message);
  // Draw now, not on the next frame: once the page says it is done, the tree and the answer
  // already show the end (a queued frame may come later, or never in a hidden tab).
  draw();
  setState(name, message);
}

/** Closing the EventSource drops the connection, which aborts the run on the server. */
function stop(name) {
  finish(name, 'Cancelled: the run and its tasks were stopped.');
}

$('run-form').addEventListener('submit', (event) => {
  event.preventDefault();
  const prompt = $('prompt').value.trim();
  if (prompt) start(prompt);
});
$('stop').addEventListener('click', () => stop('cancelled'));
window.addEventListener('pagehide', () => stop('cancelled'));

const params = new URLSearchParams(location.search);
if (params.get('prompt')) $('prompt').value = params.get('prompt');
if (params.get('autostart') === '1') start($('prompt').value.trim());
