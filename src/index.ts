/**
 * rxharness: a TypeScript agent harness on RxJS. An agent is a ReAct loop over an
 * OpenAI-compatible chat model; every run is an `Observable<AgentEvent>`; a main agent
 * delegates bounded subtasks to isolated subagents through `task` and `multitask`, and
 * every child event reaches a streaming consumer wrapped in a `TaskWrap`.
 *
 * @packageDocumentation
 */
export * from './events/index.js';
export * from './model/index.js';
export * from './session/index.js';
export * from './tools/index.js';
export * from './permission/index.js';
export * from './agent/index.js';
export * from './subagent/index.js';
export * from './talent/index.js';
export * from './engine/index.js';
export * from './adapters/index.js';
export { createDemoModel } from './demo/demo-model.js';
