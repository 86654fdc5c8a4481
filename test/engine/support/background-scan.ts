import type { ChatMessage } from '../../../src/model/chat-message.js';
import { FakeOpenAIServer } from '../../support/fake-openai-server.js';
import { turnOf } from '../../support/delegation-fixture.js';

/**
 * A fake model for two engines sharing a store: its `scanner` answers `findings` once `gate`
 * opens, and the main agent starts it as a background task when the prompt says "Start the
 * scan" (`always`: at every prompt), then answers "Started." (any other prompt: "Hello.").
 *
 * @example
 * ```ts
 * server = await backgroundScanServer(new Promise<void>((r) => (open = r)), 'FINDINGS of the scan');
 * ```
 */
export function backgroundScanServer(gate: Promise<void>, findings: string, always = false): Promise<FakeOpenAIServer> {
  return FakeOpenAIServer.start({
    handler: async (r) => {
      if (turnOf(r).agent === 'scanner') {
        await gate;
        return { text: findings };
      }
      const last = r.body.messages!.at(-1)!;
      if (last.role === 'tool') return { text: 'Started.' };
      if (always || String(last.content).includes('Start the scan')) {
        return { toolCalls: [{ name: 'task', arguments: { agent_name: 'scanner', prompt: 'scan', description: 'scan', background: true } }] };
      }
      return { text: 'Hello.' };
    },
  });
}

/** The last user message of the main agent's last request to `server`: where background results are put. */
export function lastUserPrompt(server: FakeOpenAIServer): string {
  const prompt = server.requests.at(-1)!.body.messages!.findLast((m: ChatMessage) => m.role === 'user')!;
  return String(prompt.content);
}
