import type { JsonObject } from '../events/json.js';
import type { ToolSpec } from '../model/chat-model.js';
import type { Tool } from '../tools/tool.js';

/**
 * The specs of equal tools, shared by every run of the process: keyed by the schema object
 * (most tools keep one for their lifetime; a definition's tools share one across runs), then
 * by name and description. Weak on the schema, so a schema dropped drops its specs.
 */
const specsBySchema = new WeakMap<JsonObject, Map<string, ToolSpec>>();

/**
 * Texts kept per schema. A schema that lives as long as the process (a built-in tool's) may be
 * offered under ever new descriptions (a frontend tool's, sent by each client); past this the
 * map starts again, so sharing never becomes a leak.
 */
const MAX_TEXTS_PER_SCHEMA = 64;

/** The one spec object (frozen: shared) of a tool offered as `name`, `description`, `parameters`, made at the first ask. */
export function sharedToolSpec(name: string, description: string, parameters: JsonObject): ToolSpec {
  let byText = specsBySchema.get(parameters);
  if (!byText) specsBySchema.set(parameters, (byText = new Map()));
  // A NUL cannot appear in a tool's name, so the key is unambiguous.
  const key = `${name}\u0000${description}`;
  let spec = byText.get(key);
  if (!spec) {
    if (byText.size >= MAX_TEXTS_PER_SCHEMA) byText.clear();
    byText.set(key, (spec = Object.freeze({ name, description, parameters })));
  }
  return spec;
}

/**
 * What one run offers the model, read again at every call: a tool's description or schema
 * may change during a run (`task` lists an agent that `generate` has just made). While
 * nothing changed, every call returns the same array of the same spec objects, so the steps
 * of a run (and the requests of all runs of the same tools) share them instead of building
 * them again; when a description or schema changed, a new array (the `task` tool's schema
 * object is kept while its agents stay the same: see `taskModelParameters`).
 */
export function toolSpecsReader(tools: readonly Tool[]): () => readonly ToolSpec[] {
  let last: readonly ToolSpec[] | undefined;
  return () => {
    let same = last !== undefined;
    const specs = tools.map((t, i): ToolSpec => {
      const spec = sharedToolSpec(t.name, t.description, t.modelParameters ?? t.parameters);
      if (same && last![i] !== spec) same = false;
      return spec;
    });
    if (same) return last!;
    last = specs;
    return specs;
  };
}
