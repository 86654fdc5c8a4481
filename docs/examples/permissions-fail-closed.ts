import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HarnessEngine, ScriptedModel, type AgentEvent, type ApprovalHandler } from 'rxharness';

const workspace = mkdtempSync(join(tmpdir(), 'rxharness-fail-closed-'));

// Each run: one bash call (which asks), then the model repeats what it read.
const model = () =>
  new ScriptedModel((request) => {
    const result = request.messages.find((m) => m.role === 'tool');
    return result ? { text: `I read: ${result.content}` } : { toolCalls: [{ name: 'bash', args: { command: 'echo hi' } }] };
  });
const decided = (event: AgentEvent) => {
  if (event.type === 'HITLDecided') console.log(`  ${event.decision}: ${event.comment}`);
};

console.log('No approve handler:');
await new Promise<void>((done) => new HarnessEngine({ model: model(), workspace }).stream('go').subscribe({ next: decided, complete: done }));

console.log('A handler that throws:');
const broken: ApprovalHandler = () => {
  throw new Error('approval service unreachable');
};
const result = await new HarnessEngine({ model: model(), workspace, approve: broken }).call('go');
console.log(`  the run goes on: ${result.text}`);

console.log('Cancelled while the handler waits:');
const waiting: ApprovalHandler = (_request, { signal }) =>
  new Promise((resolve) => {
    // Stop waiting when the run is cancelled; the decision no longer matters.
    signal.addEventListener('abort', () => {
      console.log('  signal aborted: the request is withdrawn');
      resolve({ decision: 'reject' });
    });
  });
const subscription = new HarnessEngine({ model: model(), workspace, approve: waiting }).stream('go').subscribe((event) => {
  decided(event); // prints nothing: no event is emitted after unsubscribe
  if (event.type !== 'HITLPending') return;
  setTimeout(() => {
    subscription.unsubscribe(); // the user closes the page, presses Ctrl+C...
    rmSync(workspace, { recursive: true, force: true });
  });
});
