import type { JsonValue } from '../events/json.js';
import type { ModelToolCall } from '../model/chat-model.js';
import type { Tool } from '../tools/tool.js';
import { checkToolArguments, type ArgsCheck } from '../tools/args-check.js';
import { quotedName } from '../tools/args-validator.js';
import { errorMessage } from '../errors/error-message.js';
import { overflowedNumber } from '../validation/finite-numbers.js';
import { MAX_JSON_DEPTH, nestsDeeper } from '../validation/json-depth.js';

/** How deep a call's arguments may nest arrays and objects ({@link MAX_JSON_DEPTH}). */
export const MAX_ARGUMENT_DEPTH = MAX_JSON_DEPTH;

/** A call's arguments parsed: the value, or (invalid JSON, or JSON nested too deep) the raw string for events and why. */
export type ParsedArguments = { readonly ok: true; readonly value: JsonValue } | { readonly ok: false; readonly value: string; readonly error: string };

/**
 * A tool call the model asked for, its arguments parsed once when its step ended: the step's
 * events and the call itself read the same parse (a parse and a depth scan less per call).
 */
export interface ParsedCall {
  readonly call: ModelToolCall;
  readonly parsed: ParsedArguments;
}

/**
 * Parses the model's raw arguments (text: the step made every model's so, `withTextArguments`);
 * invalid JSON (or JSON nested too deep) is kept as the raw string for events.
 */
export function parseArguments(raw: string): ParsedArguments {
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
  // `1e400` parses to Infinity, which a tool would get while the events (and the approval a
  // human reads) show `null`: refused, as no tool can take it either.
  const overflowed = overflowedNumber(raw, value);
  if (overflowed !== undefined) {
    const where = overflowed === '' ? 'the arguments are a number' : `the number at ${quotedName(overflowed)} is`;
    return { ok: false, value: raw, error: `${where} too large to hold (it overflows to Infinity); send a smaller number, or the digits as a string` };
  }
  return { ok: true, value };
}

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
