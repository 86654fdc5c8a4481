/**
 * Scripts a whole delegation tree on one {@link ScriptedModel}: each request is routed by
 * the agent that sent it (`request.sender`), so tests can run the engine offline, in fake
 * or virtual time.
 *
 * @module
 */
import type { ScriptedReply, ScriptedResponder } from '../../src/model/scripted-model.js';
import { readTurn, type Turn } from './agent-turns.js';

/** Answers one agent's requests. */
export type ScriptedRoute = (turn: Turn) => ScriptedReply;

/** A responder that routes by agent (`main`, a test agent's name, or `*` for any other). */
export function scriptedRoutes(routes: Readonly<Record<string, ScriptedRoute>>): ScriptedResponder {
  return (request) => {
    const read = readTurn(request.messages, (request.tools ?? []).map((t) => t.name));
    // The request says who sent it; no need to recognise the agent by its system prompt.
    const turn = request.sender ? { ...read, agent: request.sender.agentName, step: request.sender.step } : read;
    const route = routes[turn.agent] ?? routes['*'];
    // A ModelError fails the run loudly with the agent's name in it.
    if (!route) return { error: `no scripted route for agent "${turn.agent}"` };
    return route(turn);
  };
}

/** A main-agent route that plays `replies` by step, then answers with the last tool result. */
export function scriptedSteps(...replies: readonly ScriptedReply[]): ScriptedRoute {
  return (turn) => replies[turn.step - 1] ?? { text: `final: ${turn.toolResults.at(-1) ?? ''}` };
}
