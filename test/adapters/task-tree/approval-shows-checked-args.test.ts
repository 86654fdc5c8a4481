/**
 * A card (the page's, from `waitingApprovals`) shows the arguments the call will run with:
 * a typed tool's schema may add defaults or transform what the model sent, and the approval
 * is about the checked value (`HITLPending.args`, what `execute` gets, what the terminal's
 * question shows), not the model's raw `ToolCallStart.args`.
 */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ReActAgent } from '../../../src/agent/react-agent.js';
import { createTreeState, reduceTree, waitingApprovals, type TaskTreeState } from '../../../src/adapters/task-tree/index.js';
import type { AgentEvent } from '../../../src/events/index.js';
import { ScriptedModel } from '../../../src/model/scripted-model.js';
import type { ApprovalRequest } from '../../../src/permission/approval.js';
import { PermissionPolicy } from '../../../src/permission/permission-policy.js';
import { defineTool } from '../../../src/tools/define-tool.js';

describe('an approval card shows the arguments that will run', () => {
  it("a schema's default the model left out is on the card, as the terminal asks it and execute gets it", async () => {
    const received: unknown[] = [];
    const deploy = defineTool({
      name: 'deploy',
      description: 'Deploys the app.',
      input: z.object({ target: z.enum(['staging', 'production']).default('production') }),
      execute: (args) => (received.push(args), `deployed to ${args.target}`),
    });
    const model = new ScriptedModel([{ toolCalls: [{ id: 'c1', name: 'deploy', args: {} }] }, { text: 'done' }]);
    const permissions = new PermissionPolicy({ rules: [{ tool: 'deploy', action: 'ask' }] });
    let state: TaskTreeState = createTreeState();
    const cards: unknown[] = [];
    const asked: ApprovalRequest[] = [];
    const agent = new ReActAgent({
      model, tools: [deploy], permissions,
      approve: (request) => {
        asked.push(request);
        cards.push(...waitingApprovals(state).map((card) => card.args)); // what a page shows now
        return { decision: 'approve' };
      },
    });
    await new Promise<void>((resolve, reject) =>
      agent.stream('ship it').subscribe({ next: (event: AgentEvent) => void (state = reduceTree(state, event, 0)), error: reject, complete: resolve }),
    );

    expect(received).toEqual([{ target: 'production' }]);
    expect(asked.map((request) => request.args)).toEqual([{ target: 'production' }]);
    expect(cards).toEqual([{ target: 'production' }]);
    // the tool-call record keeps what ran, too
    expect(state.root!.tools[0]!.args).toEqual({ target: 'production' });
    expect(state.root!.tools[0]!.label).toBe('deploy');
  });
});
