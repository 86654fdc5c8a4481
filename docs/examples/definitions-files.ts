import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HarnessEngine, ScriptedModel } from 'rxharness';

// A workspace with one good definition and one broken one.
const workspace = mkdtempSync(join(tmpdir(), 'rxharness-defs-'));
const agents = join(workspace, '.rxharness', 'agents');
mkdirSync(agents, { recursive: true });
writeFileSync(
  join(agents, 'reviewer.md'),
  `---
name: reviewer
description: Reviews a change for bugs. Read-only.
tools: read, grep, glob
maxSteps: 12
permissionRules:
  - { tool: bash, action: deny }
---
You are a code reviewer. Read the files you are given and report bugs with file and line.
`,
);
writeFileSync(join(agents, 'broken.md'), '---\ndescription: no name here\n---\nBody\n');

// An empty home folder of its own: none of your ~/.rxharness/agents in the listing.
const homeDir = mkdtempSync(join(tmpdir(), 'rxharness-home-'));
const engine = new HarnessEngine({ model: new ScriptedModel([]), workspace, homeDir });
for (const agent of await engine.agents.list()) console.log(`${agent.name.padEnd(10)} [${agent.source}] ${agent.description}`);
for (const d of await engine.agents.diagnostics()) console.log(`skipped ${d.file}: ${d.reason}`);
const reviewer = await engine.agents.get('reviewer');
console.log('reviewer tools:', reviewer?.tools, 'maxSteps:', reviewer?.maxSteps);
