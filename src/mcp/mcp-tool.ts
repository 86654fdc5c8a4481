import pLimit from 'p-limit';
import type { JsonObject } from '../events/json.js';
import { errorMessage } from '../errors/error-message.js';
import { withValidator, type ArgsValidator } from '../tools/args-check.js';
import { jsonSchemaValidator } from '../tools/json-schema-validator.js';
import { schemaVerdict, type SchemaFinding } from '../tools/schema-policy.js';
import type { Tool } from '../tools/tool.js';
import { toolError } from '../tools/tool-error.js';
import type { McpConnection } from './mcp-connection.js';
import { cappedMcpText, mcpResultText } from './mcp-result-text.js';
import { MCP_MAX_PATH_ARGUMENTS, mcpPathArgument, mcpPathValues } from './mcp-path-args.js';
import { mcpPathSubjects, namesFile } from './mcp-path-subjects.js';
import { MCP_LISTING_MAX_PATTERNS, patternJudge, type PatternJudge } from './mcp-schema-patterns.js';
import { mcpSubject, mcpSubjectKey } from './mcp-subject.js';
import { cappedDescription, oversizedSchema } from './mcp-tool-limits.js';
import type { McpListedTool } from './mcp-tool-listing.js';
import { quotedClip } from '../text/quoted-clip.js';
import { unusableRefs } from '../validation/schema-refs.js';
import { metaSchemaProblem } from '../validation/validator.js';

/** A tool made from an MCP tool, or why it was left out, and what a run should be told. */
export interface McpToolMade {
  /** The tool; undefined when it was left out (its schema is too large, or has an unusable `$ref`). */
  readonly tool: Tool | undefined;
  /** Warnings for every run that may use it: `code` and `message`, like a `Warning` event's. */
  readonly warnings: readonly { readonly code: string; readonly message: string }[];
}

// How many path arguments of one call are resolved at once.
const PATHS_AT_ONCE = 16;
// Checks only that the arguments are an object: for a schema ajv cannot compile.
const SHAPE_ONLY = jsonSchemaValidator({ type: 'object' });
// The most characters of ajv's words on an invalid schema a warning shows, quoted and escaped:
// it lists every problem, each naming the server's own keys.
const QUOTED_PROBLEM_CHARS = 300;

/**
 * The tool an agent holds for one tool of an MCP server, named `name`
 * (`mcp__<server>__<tool>`): the model is offered the server's description (cut at
 * 4 KiB) and input schema, each call is checked against that
 * schema (ajv, its regexes on RE2 and its `uniqueItems` in linear time, so neither a server's `pattern` nor a long list can freeze the process) before
 * it goes out (the validator compiled at the first call, not when listed), permission rules match its subjects (every path argument resolved, see
 * `mcp-path-subjects.ts`, and its main argument when that is no path: {@link mcpSubject}), and the call's signal
 * reaches the server, so a cancelled call is cancelled there. Whatever happens to the call is
 * a result the model reads; nothing is thrown.
 *
 * What a schema calls cannot wholly be checked against does to the tool is the one schema
 * policy's (`schemaVerdict`, `'mcp-server'`). A `pattern` RE2 cannot run (lookaround,
 * backreferences, a program over 1,000 steps like `\w{1000}\w{1000}`) is not enforced, with a
 * warning: the server checks its own arguments. A schema ajv refuses is offered as it is, its
 * calls checked to be an object only, with a warning (`mcp-schema-invalid`) naming the server,
 * the tool and ajv's words when its meta-schema refuses it (checked when listed: cheap, unlike
 * compiling); what only compiling finds is found at the first call, unwarned. A schema over
 * 64 KiB, or one no call could be checked against without holding the process (a `$ref` to a URL or one that loops in place,
 * `"$async": true`, too much to compile: `unusableRefs`), leaves the tool out, with a
 * warning (`mcp-tool-skipped`) naming the server and the tool; so does one whose patterns
 * would take `judge` (one per listing) past the patterns it compiles in all.
 *
 * @example
 * ```ts
 * const { tool, warnings } = mcpTool('mcp__fs__read_text_file', info, connection);
 * tool?.subject?.({ path: '/tmp/a.txt' }); // '/tmp/a.txt'
 * ```
 */
export function mcpTool(name: string, info: McpListedTool, connection: McpConnection, judge: PatternJudge = patternJudge()): McpToolMade {
  const server = connection.name;
  const schema = modelSchema(info.inputSchema);
  // A listing found it too large already, and kept a stand-in for it.
  const tooLarge = info.inputSchemaTooLarge ?? oversizedSchema(schema);
  if (tooLarge && leavesOut('uncheckable')) return skipped(`MCP server "${server}" offers ${name} with ${tooLarge}; it is left out.`);
  // After the size and depth check, which bounds this walk. A `$ref` that loops in place
  // overflowed the stack (some 300 ms) at every call's check, and one to a URL failed to
  // compile at every call: the tool could never be called, so it is not offered.
  const badRef = unusableRefs(schema);
  if (badRef !== undefined && leavesOut('uncheckable')) return skipped(`MCP server "${server}" offers ${name} with an input schema that cannot be checked against: ${badRef}; it is left out.`);
  const unenforced = judge(schema);
  if (unenforced === undefined && leavesOut('uncheckable')) {
    return skipped(`MCP server "${server}" offers ${name} with regexes past the ${MCP_LISTING_MAX_PATTERNS} distinct ones of its listing that are compiled when it is listed (each costs up to some milliseconds of the event loop); it is left out.`);
  }
  const description = cappedDescription(info.description?.trim() || `${info.title ?? info.name} (a tool of the MCP server "${server}")`);
  const execute = async (args: Record<string, unknown>, { signal }: { signal: AbortSignal }) => {
    try {
      return mcpResultText(await connection.call(info.name, args, signal));
    } catch (e) {
      // A server's error message has no limit of its own, nor has an output schema's list
      // of problems: cut like a result, or one answer could fill the context.
      return toolError(cappedMcpText(errorMessage(e)));
    }
  };
  const subject = mcpSubject(schema);
  const isPath = mcpPathArgument(schema);
  const mainKey = mcpSubjectKey(schema);
  // Every path argument, resolved as the built-in tools resolve theirs; and the main
  // argument when it is no path (a command, a query), which rules have always matched.
  const subjects = async (args: Record<string, unknown>, workspace: string): Promise<string[]> => {
    const base = connection.pathBase;
    const values = mcpPathValues(args, isPath);
    if (values.length > MCP_MAX_PATH_ARGUMENTS) {
      throw new Error(`it has more than ${MCP_MAX_PATH_ARGUMENTS} path arguments, and at most ${MCP_MAX_PATH_ARGUMENTS} of one call are checked against the permission rules; split it into calls of at most ${MCP_MAX_PATH_ARGUMENTS} paths each`);
    }
    // A few at a time: each is resolved on disk, and a thousand at once held the event loop.
    const judged = (await pLimit(PATHS_AT_ONCE).map(values, (value) => mcpPathSubjects(base, workspace, value))).flat();
    const main = mainKey === undefined ? undefined : args[mainKey];
    const mainIsFile = mainKey !== undefined && isPath(mainKey) && typeof main === 'string' && namesFile(main);
    if (!mainIsFile) judged.unshift(subject(args));
    return judged;
  };
  const tool: Tool = { name, description, parameters: schema, subject: (args) => subject(args), subjects, execute };
  // Compiled at the first call, not when listed: compiling costs about half a second per
  // 64 KiB of schema, and a server listing 256 large ones held the event loop for minutes.
  let validate: ArgsValidator | undefined;
  const unchecked = unenforced ?? [];
  if (unchecked.length > 0 && leavesOut('unenforced-pattern')) return skipped(`MCP server "${server}" offers ${name} with patterns the linear-time regex engine cannot run; it is left out.`);
  const warned = schemaVerdict('mcp-server', 'unenforced-pattern').action === 'keep-with-warning' ? unchecked : [];
  const warnings = warned.map(({ pattern, reason }) => ({
    code: 'mcp-pattern-unenforced',
    message: `MCP server "${server}": the pattern ${quotedClip(pattern, 200)} in the schema of ${name} is not checked here (${reason}); the linear-time regex engine cannot run it, so the server's own check is all there is.`,
  }));
  // Found against the meta-schema now, so every run that may use the tool is told; compiling
  // (the call's check) is left to the first call, as it is costly.
  const invalid = metaSchemaProblem(schema);
  if (invalid !== undefined) {
    if (leavesOut('invalid')) return skipped(`MCP server "${server}" offers ${name} with an input schema that is not a valid JSON schema; it is left out.`);
    validate = SHAPE_ONLY;
    if (schemaVerdict('mcp-server', 'invalid').action === 'keep-with-warning') warnings.push(invalidWarning(server, name, invalid));
  }
  return { tool: withValidator(tool, (args) => (validate ??= validatorOf(schema))(args)), warnings };
}

/**
 * The warning for a tool kept whose input schema ajv refuses: ajv's words quoted as JSON (they
 * hold the server's own keys and values), then cut, so escapes cannot make them longer.
 */
function invalidWarning(server: string, name: string, problem: string): { readonly code: string; readonly message: string } {
  const words = quotedClip(problem, QUOTED_PROBLEM_CHARS);
  const message = `MCP server "${server}": the input schema of ${name} is not a valid JSON schema (ajv: ${words}); its calls are checked to be an object only, so the server's own check is all there is.`;
  return { code: 'mcp-schema-invalid', message };
}

/** A tool left out, and the warning that says why. */
function skipped(message: string): McpToolMade {
  return { tool: undefined, warnings: [{ code: 'mcp-tool-skipped', message }] };
}

/** Whether the one schema policy leaves a server's tool out for `finding`. */
function leavesOut(finding: SchemaFinding): boolean {
  return schemaVerdict('mcp-server', finding).action === 'leave-out';
}

function validatorOf(schema: JsonObject): ArgsValidator {
  try {
    return jsonSchemaValidator(schema);
  } catch (e) {
    // A schema ajv cannot compile though its meta-schema let it through when listed (a
    // `$ref` to nothing, say), found at the first call. Kept by the policy: the server checks
    // the arguments itself, so the model is offered its schema and only the shape is checked
    // here. Any other verdict, this late, can only fail the calls.
    if (!leavesOut('invalid')) return SHAPE_ONLY;
    const problems = `the MCP server's input schema for this tool cannot be checked against: ${cappedMcpText(errorMessage(e))}`;
    return () => ({ problems });
  }
}

/** The input schema as the model is offered it: `$schema` left out (ajv does not know 2020-12's id, models do not need it). */
function modelSchema(input: McpListedTool['inputSchema']): JsonObject {
  const { $schema: _draft, ...rest } = input as Record<string, unknown>;
  return { ...rest, type: 'object' } as JsonObject;
}
