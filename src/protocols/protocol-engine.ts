import type { HarnessEngine } from '../engine/harness-engine.js';

/** What a protocol handler needs of the engine: starting runs (`startHttpRun`), and the registry of started runs. */
export type ProtocolEngine = Pick<HarnessEngine, 'start' | 'runs'>;
