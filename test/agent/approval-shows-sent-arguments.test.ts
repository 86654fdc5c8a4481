/**
 * What a human approves is what will run, when it is plain JSON; else what the model sent. A typed tool's schema may transform its
 * arguments on the way to `execute` (zod's `transform`, `coerce`); the approval must still
 * show the call's JSON: a transformed value may be no JSON at all (a `BigInt` cannot be
 * written, so an SSE or NDJSON consumer of the run would fail on the question; a `Map`
 * would be shown as `{}`, hiding what the call is about).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ReActAgent } from '../../src/agent/react-agent.js';
import type { ApprovalRequest } from '../../src/permission/approval.js';
import { PermissionPolicy } from '../../src/permission/index.js';
import { defineTool } from '../../src/tools/define-tool.js';
import { collect, own } from '../support/collect-events.js';
import { FakeOpenAIServer } from '../support/fake-openai-server.js';
import { openAIModelFor } from '../support/openai-model.js';

let server: FakeOpenAIServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe('an approval of a typed tool whose schema transforms its arguments', () => {
  it('shows the JSON the model sent, in HITLPending and to the handler; execute still gets the transformed value', async () => {
    const sent = { amount: '12345678901234567890', tags: ['a', 'b'] };
    server = await FakeOpenAIServer.start({ replies: [{ toolCalls: [{ name: 'transfer', arguments: sent }] }, { text: 'went on' }] });
    const received: unknown[] = [];
    const transfer = defineTool({
      name: 'transfer',
      description: 'Moves an amount.',
      input: z.object({ amount: z.string().regex(/^\d+$/).transform((s) => BigInt(s)), tags: z.array(z.string()).transform((t) => new Set(t)) }),
      execute: (args) => {
        received.push(args.amount, [...args.tags]);
        return 'moved';
      },
    });
    const asked: ApprovalRequest[] = [];
    const agent = new ReActAgent({
      model: openAIModelFor(server),
      tools: [transfer],
      permissions: new PermissionPolicy({ rules: [{ tool: 'transfer', action: 'ask' }] }),
      approve: (request) => {
        asked.push(request);
        return { decision: 'approve' };
      },
    });
    const events = await collect(agent.stream('go'));
    const [pending] = own(events, 'HITLPending');
    expect(pending!.args).toEqual(sent);
    expect(asked[0]!.args).toEqual(sent);
    // Every event can be written as JSON (what the SSE and NDJSON adapters do with each).
    for (const event of events) expect(() => JSON.stringify(event)).not.toThrow();
    expect(received).toEqual([12345678901234567890n, ['a', 'b']]);
    expect(events.at(-1)).toMatchObject({ type: 'RunEnd', abnormal: false, text: 'went on' });
  });
});
