import { createDemoModel, HarnessEngine } from 'rxharness';
import { createTreeState, reduceTree, tokensByAgent, treeRows } from 'rxharness/client';

const engine = new HarnessEngine({ model: createDemoModel({ chunkDelayMs: 0 }) });

// The reducer the page and the terminal tree share: fold each event (or UI item) into the state.
let state = createTreeState();
await new Promise<void>((resolve, reject) =>
  engine.stream('Survey this project').subscribe({ next: (event) => (state = reduceTree(state, event, Date.now())), complete: resolve, error: reject }),
);

for (const { node, depth } of treeRows(state)) {
  const calls = node.tools.map((call) => `${call.label} (${call.status})`).join(', ');
  console.log(`${'  '.repeat(depth)}${node.agentName}${node.taskIndex === undefined ? '' : ` #${node.taskIndex}`}: ${node.status}; ${calls}`);
}
console.log('tokens per agent:', Object.fromEntries(tokensByAgent(state)));
