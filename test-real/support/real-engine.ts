/**
 * Builds what a real-server check runs: an `OpenAIChatModel` on a real server (keyless, as a
 * user points it at a local llama.cpp), and a `HarnessEngine` confined to a throw-away
 * workspace with just the tools a check needs, so prompts stay small and runs stay fast.
 *
 * @module
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { lastValueFrom, toArray, type Observable } from 'rxjs';
import type { HarnessEngineOptions } from '../../src/engine/engine-options.js';
import { HarnessEngine } from '../../src/engine/harness-engine.js';
import type { AgentEvent, RunEndEvent } from '../../src/events/agent-event.js';
import { isTaskWrap } from '../../src/events/guards.js';
import type { ModelSettings } from '../../src/model/model-settings.js';
import { OpenAIChatModel } from '../../src/model/openai-chat-model.js';

/** Every tool a main agent can have; a check keeps a few and disables the rest. */
const ALL_TOOLS = ['read', 'write', 'edit', 'list', 'glob', 'grep', 'bash', 'todo', 'task', 'multitask', 'generate'];

/**
 * A model on a real server. No `apiKey`: a local server needs none (rxharness then sends no
 * `Authorization` header). `extraBody` carries what `settings` does not name (`logit_bias`).
 */
export function llamaModel(baseURL: string, settings: ModelSettings = {}, extraBody: Record<string, unknown> = {}): OpenAIChatModel {
  return new OpenAIChatModel({ model: 'tiny', baseURL, settings, extraBody, timeoutMs: 60_000 });
}

/** A throw-away workspace (also the home folder, so no user's agent definitions leak in). */
export class Workspace {
  readonly dir = mkdtempSync(join(tmpdir(), 'rxharness-real-'));

  constructor() {
    writeFileSync(join(this.dir, 'notes.txt'), 'The answer is 42.\n');
  }

  /** Removes the folder. */
  remove(): void {
    rmSync(this.dir, { recursive: true, force: true });
  }
}

/** Options of {@link realEngine}: the engine's, plus the tools to keep. */
export type RealEngineOptions = Omit<HarnessEngineOptions, 'workspace' | 'homeDir' | 'disabledTools'> & {
  /** The tools the main agent keeps (default `read` and `list`: the templates still render tools). */
  readonly keep?: readonly string[];
};

/** An engine on `workspace` with only the `keep` tools; delegation only when `task` or `multitask` is kept. */
export function realEngine(workspace: Workspace, options: RealEngineOptions): HarnessEngine {
  const { keep = ['read', 'list'], ...rest } = options;
  return new HarnessEngine({
    instructions: 'You are the main agent of a test run. Answer briefly.',
    ...rest,
    workspace: workspace.dir,
    homeDir: workspace.dir,
    disabledTools: ALL_TOOLS.filter((name) => !keep.includes(name)),
    subagentEnabled: keep.includes('task') || keep.includes('multitask'),
  });
}

/** All events of a run, once it completes. */
export function runEvents(run$: Observable<AgentEvent>): Promise<AgentEvent[]> {
  return lastValueFrom(run$.pipe(toArray()));
}

/** The run's own (unwrapped) `RunEnd`s. */
export function ownRunEnds(events: readonly AgentEvent[]): RunEndEvent[] {
  return events.filter((e): e is RunEndEvent => !isTaskWrap(e) && e.type === 'RunEnd');
}

/** The only unwrapped `RunEnd`, which must be the last event; throws a readable message otherwise. */
export function theRunEnd(events: readonly AgentEvent[]): RunEndEvent {
  const ends = ownRunEnds(events);
  const last = events.at(-1);
  if (ends.length !== 1 || last !== ends[0]) {
    throw new Error(`expected exactly one unwrapped RunEnd, last; got ${ends.length}, last event: ${JSON.stringify(last)}`);
  }
  return ends[0] as RunEndEvent;
}

/** A short account of a run for failure messages: the event types, and the end. */
export function describeRun(events: readonly AgentEvent[]): string {
  const types = events.map((e) => (isTaskWrap(e) ? `TaskWrap(${e.event.type})` : e.type)).join(' ');
  return `${types}\nRunEnd: ${JSON.stringify(ownRunEnds(events).at(-1) ?? null)}`;
}
