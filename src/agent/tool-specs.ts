import type { JsonObject } from '../events/json.js';
import type { ToolSpec } from '../model/chat-model.js';
import type { Tool } from '../tools/tool.js';

/**
 * The specs of equal tools, shared by every run of the process: keyed by the schema object
 * (most tools keep one for their lifetime; a definition's tools share one across runs), then
 * by name and description. Weak on the schema, so a schema dropped drops its specs.
 */
const specsBySchema = new WeakMap<JsonObject, SchemaSpecs>();

/** The specs of one schema: by name and description, and the one last given for each name. */
interface SchemaSpecs {
  readonly byText: Map<string, ToolSpec>;
  /**
   * The spec last given for each name: asked again with the same description (the common
   * case, at every step of every run) it is found without building the name-and-description
   * key, a new string of the whole description hashed at each ask.
   */
  readonly lastByName: Map<string, ToolSpec>;
}

/**
 * Texts kept per schema. A schema that lives as long as the process (a built-in tool's) may be
 * offered under ever new descriptions (a frontend tool's, sent by each client); past this the
 * map starts again, so sharing never becomes a leak.
 */
const MAX_TEXTS_PER_SCHEMA = 64;

/** The one spec object (frozen: shared) of a tool offered as `name`, `description`, `parameters`, made at the first ask. */
export function sharedToolSpec(name: string, description: string, parameters: JsonObject): ToolSpec {
  let specs = specsBySchema.get(parameters);
  if (!specs) specsBySchema.set(parameters, (specs = { byText: new Map(), lastByName: new Map() }));
  const last = specs.lastByName.get(name);
  if (last?.description === description) return last;
  const { byText, lastByName } = specs;
  // A NUL cannot appear in a tool's name, so the key is unambiguous.
  const key = `${name}\u0000${description}`;
  let spec = byText.get(key);
  if (!spec) {
    if (byText.size >= MAX_TEXTS_PER_SCHEMA) {
      byText.clear();
      lastByName.clear();
    }
    byText.set(key, (spec = Object.freeze({ name, description, parameters })));
  }
  lastByName.set(name, spec);
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
  const specOf = (t: Tool): ToolSpec => sharedToolSpec(t.name, t.description, t.modelParameters ?? t.parameters);
  return () => {
    // Compared first, built only when something changed: asked twice a step (the estimate and the request).
    if (last?.length === tools.length && tools.every((t, i) => specOf(t) === last![i])) return last;
    last = tools.map(specOf);
    return last;
  };
}
