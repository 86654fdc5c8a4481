import type OpenAI from 'openai';
import type { HarnessEngine } from '../../src/index.js';

/** The engine of the delegation scenario; `client` defaults to one without retries. */
export declare function delegationEngine(options: {
  readonly baseURL: string;
  readonly workspace: string;
  readonly home: string;
  readonly client?: OpenAI;
  /** `engine.start()` runs kept for replay (default: the engine's). */
  readonly maxRetainedRuns?: number;
}): Promise<HarnessEngine>;
