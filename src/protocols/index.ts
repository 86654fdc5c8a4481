/**
 * `rxharness/protocols`: the engine spoken in the protocols agent frontends and other agents
 * already use — AG-UI (CopilotKit and others), the AI SDK's UI message stream (`useChat`)
 * and A2A. Each protocol has an operator from our events to its events and a `(req, res)`
 * handler for Node's `http`, Express and Fastify that honours the same bearer token,
 * concurrent-run cap and busy-session rule as `runsHandler`.
 *
 * See docs/protocols.md.
 *
 * @packageDocumentation
 */

// AG-UI.

// The AI SDK UI message stream.

// A2A.
export {};
