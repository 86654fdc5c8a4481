import type { AgentRoute } from '../../support/delegation-fixture.js';
import type { FakeReply, RecordedRequest } from '../../support/fake-openai-server.js';

/** The prompt as the fake server counts it (its JSON, four characters a token, like `contextSize`). */
export const promptTokens = (r: RecordedRequest): number => Math.ceil((JSON.stringify(r.body.messages ?? []) + JSON.stringify(r.body.tools ?? [])).length / 4);

/**
 * `route`, behind a llama.cpp-like refusal of a prompt over `window` tokens. Unlike the fake
 * server's `contextSize`, the refused requests stay recorded and `/props` announces nothing:
 * the engine learns the window only from the refusal.
 *
 * @example
 * ```ts
 * const fixture = await startDelegationFixture({ main: refusingOver(12_288, (turn) => ({ text: 'ok' })) });
 * ```
 */
export const refusingOver =
  (window: number, route: AgentRoute): AgentRoute =>
  (turn, request): FakeReply => {
    const tokens = promptTokens(request);
    if (tokens > window) return { status: 400, errorMessage: `request (${tokens} tokens) exceeds the available context size (${window} tokens), try increasing it` };
    return route(turn, request) as FakeReply;
  };
