import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import type { JsonObject, JsonValue } from '../events/json.js';
import type { Tool } from '../tools/tool.js';
import { errorMessage } from '../errors/error-message.js';

// One validator per schema object: tools built from shared schema constants (every child's
// copy of `task`, say) compile once.
const ajv = new Ajv({ allErrors: true, strict: false });
const validators = new WeakMap<JsonObject, ValidateFunction>();

/** Parses the model's raw arguments; invalid JSON is kept as the raw string for events. */
export function parseArguments(raw: string): { ok: true; value: JsonValue } | { ok: false; value: string; error: string } {
  if (raw.trim() === '') return { ok: true, value: {} };
  try {
    return { ok: true, value: JSON.parse(raw) as JsonValue };
  } catch (e) {
    return { ok: false, value: raw, error: errorMessage(e) };
  }
}

/** Checks arguments against the tool's schema; returns a readable list of problems, or undefined. */
export function checkArguments(tool: Tool, args: JsonValue): string | undefined {
  let validate = validators.get(tool.parameters);
  if (!validate) {
    validate = ajv.compile(tool.parameters);
    validators.set(tool.parameters, validate);
  }
  if (validate(args)) return undefined;
  return (validate.errors ?? []).map(describe).join('; ');
}

function describe(e: ErrorObject): string {
  const where = e.instancePath ? `"${e.instancePath.slice(1).replaceAll('/', '.')}"` : 'the arguments';
  if (e.keyword === 'additionalProperties') {
    return `${where} has an unknown property "${String(e.params.additionalProperty)}"`;
  }
  if (e.keyword === 'required') return `${where} must have the property "${String(e.params.missingProperty)}"`;
  return `${where} ${e.message ?? 'is invalid'}`;
}
