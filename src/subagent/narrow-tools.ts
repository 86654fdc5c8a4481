import { isDelegationTool } from './delegation-tool-names.js';

/** Inputs of {@link narrowTools}. */
export interface NarrowToolsInput {
  /** Every tool the parent holds. */
  readonly parentTools: readonly string[];
  /** The definition's `tools`: undefined, empty or containing `*` means all the parent has. */
  readonly tools?: readonly string[];
  /** The definition's `disallowedTools`: removed even when `tools` allows them. */
  readonly disallowedTools?: readonly string[];
  /** Tools the engine turned off for everyone. */
  readonly disabledTools?: readonly string[];
  /** False when the child sits at the depth limit: it gets no delegation tools. */
  readonly canDelegate: boolean;
}

/**
 * The tools a child may hold: the definition's tools ∩ the parent's, minus the disallowed and
 * the engine-disabled ones, minus `task` / `multitask` / `generate` at the depth limit. The
 * result is a subset of the parent's tools by construction, in the parent's order.
 *
 * @example
 * ```ts
 * narrowTools({ parentTools: ['read', 'bash', 'task'], tools: ['read', 'write'], canDelegate: false });
 * // ['read']
 * ```
 */
export function narrowTools(input: NarrowToolsInput): string[] {
  const wanted = input.tools?.length && !input.tools.includes('*') ? new Set(input.tools) : undefined;
  const removed = new Set([...(input.disallowedTools ?? []), ...(input.disabledTools ?? [])]);
  return input.parentTools.filter(
    (name) => (!wanted || wanted.has(name)) && !removed.has(name) && (input.canDelegate || !isDelegationTool(name)),
  );
}
