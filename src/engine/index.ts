export { HarnessEngine } from './harness-engine.js';
export type { HarnessEngineOptions } from './engine-options.js';
export { backgroundResults } from './background-results.js';
