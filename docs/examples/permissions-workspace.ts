import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HarnessEngine, ScriptedModel, type HarnessEngineOptions } from 'rxharness';

// <root>/project is the workspace; <root>/shared/notes.txt lies outside it.
const root = realpathSync(mkdtempSync(join(tmpdir(), 'rxharness-confine-')));
const workspace = join(root, 'project');
const shared = join(root, 'shared');
mkdirSync(workspace);
mkdirSync(shared);
writeFileSync(join(shared, 'notes.txt'), 'shared notes\n');
symlinkSync(join(shared, 'notes.txt'), join(workspace, 'link.txt')); // a link pointing out

// One read of `path`; prints what the model read back.
async function read(label: string, path: string, options: Partial<HarnessEngineOptions> = {}): Promise<void> {
  const model = new ScriptedModel([{ toolCalls: [{ name: 'read', args: { path } }] }, { text: 'done' }]);
  const engine = new HarnessEngine({ model, workspace, ...options });
  await engine.call('read it');
  const answer = String(model.requests[1]!.messages.at(-1)!.content);
  console.log(`${label}:\n  ${answer.replaceAll(root, '<root>').trim()}`);
}

const outside = join(shared, 'notes.txt');
await read('../shared/notes.txt', '../shared/notes.txt');
await read('absolute path', outside);
await read('link.txt (points out)', 'link.txt');
// An explicit allow rule whose pattern matches the outside path lets exactly that through.
await read('with an allow rule', outside, { permissionRules: [{ tool: 'read', action: 'allow', pattern: `${shared}/**` }] });
// Approving an ask never widens the workspace: still refused, and nobody is asked.
await read('with an ask rule, approved', outside, {
  permissionRules: [{ tool: 'read', action: 'ask', pattern: `${shared}/**` }],
  approve: () => ({ decision: 'approve' }),
});

rmSync(root, { recursive: true, force: true });
