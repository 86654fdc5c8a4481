import type { JsonValue } from '../events/json.js';
import type { Tool } from '../tools/tool.js';
import { checkToolArguments, type ArgsCheck } from '../tools/args-check.js';
import { errorMessage } from '../errors/error-message.js';
import { argumentsText } from '../model/arguments-text.js';

/**
 * How deep a call's arguments may nest arrays and objects: far more than any tool's schema
 * needs. `JSON.parse` reads any depth, but everything after it walks the value recursively
 * (`JSON.stringify` for events, sessions and the repeat check, the validators), and 100,000
 * nested `[` from a model overflowed the stack and ended its run.
 */
export const MAX_ARGUMENT_DEPTH = 100;

/** Parses the model's raw arguments; invalid JSON (or JSON nested too deep) is kept as the raw string for events. */
export function parseArguments(given: string): { ok: true; value: JsonValue } | { ok: false; value: string; error: string } {
  // A custom ChatModel written in JavaScript may hand over the object itself, as some servers do.
  const raw = argumentsText(given);
  if (raw.trim() === '') return { ok: true, value: {} };
  let value: JsonValue;
  try {
    value = JSON.parse(raw) as JsonValue;
  } catch (e) {
    return { ok: false, value: raw, error: errorMessage(e) };
  }
  if (nestsDeeper(raw, MAX_ARGUMENT_DEPTH)) {
    return { ok: false, value: raw, error: `arrays and objects nested more than ${MAX_ARGUMENT_DEPTH} deep, more than any tool takes` };
  }
  return { ok: true, value };
}

/** Whether the JSON text `raw` nests arrays and objects more than `max` deep: one pass, no recursion. */
function nestsDeeper(raw: string, max: number): boolean {
  if (raw.length <= max) return false;
  let depth = 0;
  let inString = false;
  for (let i = 0; i < raw.length; i++) {
    const c = raw.charCodeAt(i);
    if (inString) {
      if (c === BACKSLASH) i++;
      else if (c === QUOTE) inString = false;
    } else if (c === QUOTE) inString = true;
    else if (c === OPEN_ARRAY || c === OPEN_OBJECT) {
      if (++depth > max) return true;
    } else if (c === CLOSE_ARRAY || c === CLOSE_OBJECT) depth--;
  }
  return false;
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;

/**
 * Checks arguments with the tool's own validator (a `defineTool` tool's schema) or against
 * its `parameters`: the value `execute` gets (a schema's transform applied), or a readable
 * list of problems. Never throws: a validator that does (a hand-written tool's `parameters`
 * that is no valid JSON schema, compiled at its first call) fails this call, not the run.
 */
export function checkArguments(tool: Tool, args: JsonValue): ArgsCheck {
  try {
    return checkToolArguments(tool, args);
  } catch (e) {
    return { problems: `its schema failed while checking them (${errorMessage(e)})` };
  }
}
