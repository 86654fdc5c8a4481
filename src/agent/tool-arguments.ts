import type { JsonValue } from '../events/json.js';
import type { Tool } from '../tools/tool.js';
import { checkToolArguments, type ArgsCheck } from '../tools/args-check.js';
import { errorMessage } from '../errors/error-message.js';

/** Parses the model's raw arguments; invalid JSON is kept as the raw string for events. */
export function parseArguments(raw: string): { ok: true; value: JsonValue } | { ok: false; value: string; error: string } {
  if (raw.trim() === '') return { ok: true, value: {} };
  try {
    return { ok: true, value: JSON.parse(raw) as JsonValue };
  } catch (e) {
    return { ok: false, value: raw, error: errorMessage(e) };
  }
}

/**
 * Checks arguments with the tool's own validator (a `defineTool` tool's schema) or against
 * its `parameters`: the value `execute` gets (a schema's transform applied), or a readable
 * list of problems.
 */
export function checkArguments(tool: Tool, args: JsonValue): ArgsCheck {
  return checkToolArguments(tool, args);
}
