import type OpenAI from 'openai';
import type { HarnessEngine } from '../../src/index.js';

/** The engine of the delegation scenario; `client` defaults to one without retries. */
export declare function delegationEngine(options: {
  readonly baseURL: string;
  readonly workspace: string;
  readonly home: string;
  readonly client?: OpenAI;
}): Promise<HarnessEngine>;
