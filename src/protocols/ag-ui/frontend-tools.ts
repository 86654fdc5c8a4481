import type { Tool as AgUiTool } from '@ag-ui/core';
import type { JsonObject } from '../../events/json.js';
import { HttpFailure } from '../../http/http-failure.js';
import { MCP_MAX_TOOLS, oversizedSchema } from '../../mcp/mcp-tool-limits.js';
import type { Tool } from '../../tools/tool.js';
import type { FrontendCalls } from './frontend-calls.js';
import { DELEGATION_TOOL_NAMES } from '../../subagent/delegation-tool-names.js';
import { FrontendToolBudget } from './frontend-tool-limits.js';
import { unusableRefs } from '../../validation/schema-refs.js';
import { compileSchema } from '../../validation/validator.js';
import { errorMessage } from '../../errors/error-message.js';

/** A function name chat servers accept (OpenAI's rule). */
const TOOL_NAME = /^[A-Za-z0-9_-]{1,64}$/;

/**
 * The tools of a `RunAgentInput` as tools of our run: the model is offered each with its
 * description and JSON schema; a call waits (at most `waitMs`) for the frontend to run it
 * and send its result with the next request, which `calls` receives.
 *
 * @throws HttpFailure `400` for more tools than an MCP server may offer (256), a tool without a
 *   usable name, or with a schema that is not an object or is larger than an MCP tool's may be
 *   (64 KiB of JSON), a description (the tool's, or one in its schema) over 4 KiB, or tools
 *   that bring more than 128 KiB together (`FrontendToolBudget`), or a schema the validator
 *   cannot check a call against: a `$ref` to a URL or one that loops in place (`unusableRefs`),
 *   no valid JSON schema (ajv's message), or a `pattern` RE2 cannot run (lookaround, a backreference).
 */
export function frontendTools(tools: readonly AgUiTool[], calls: FrontendCalls, waitMs: number): Tool[] {
  // Each is checked, and offered with every model request of the run: 50,000 small ones (under
  // the body limit) held the event loop, every run and client of the process, for 3 seconds.
  if (tools.length > MCP_MAX_TOOLS) throw new HttpFailure(400, `tools has ${tools.length} tools; at most ${MCP_MAX_TOOLS} may be offered (as many as an MCP server's): send the ones this turn needs`);
  const named = new Set<string>();
  const budget = new FrontendToolBudget();
  return tools.map((tool, i) => {
    if (typeof tool?.name !== 'string' || !TOOL_NAME.test(tool.name)) {
      throw new HttpFailure(400, `tools[${i}].name must be 1 to 64 letters, digits, "_" or "-", got ${JSON.stringify(tool?.name)}`);
    }
    // Two of one name: the model server refuses the request (the run would end in RUN_ERROR).
    if (named.has(tool.name)) throw new HttpFailure(400, `tools[${i}].name "${tool.name}" is the name of an earlier tool of the request; give each tool its own`);
    named.add(tool.name);
    // A frontend `task` would be taken for a delegation by the event mapping, and would hide the server's.
    if (DELEGATION_TOOL_NAMES.includes(tool.name)) throw new HttpFailure(400, `tools[${i}].name "${tool.name}" is the name of a delegation tool of the server; name the tool differently`);
    const given: unknown = tool.parameters ?? { type: 'object', properties: {} };
    if (typeof given !== 'object' || given === null || Array.isArray(given)) {
      throw new HttpFailure(400, `tools[${i}].parameters must be a JSON schema object`);
    }
    // Without `$schema`, as MCP tools' and our own: the validator does not know 2020-12's id
    // (zod 4 writes it), so every call would fail its check, and the model needs no dialect.
    const { $schema: _dialect, ...parameters } = given as Record<string, unknown>;
    // The limit of an MCP server's schemas, for the same reason: compiling the validator of a
    // call's arguments holds the event loop, every run and client of the process, for seconds at 1 MiB.
    const tooLarge = oversizedSchema(parameters as JsonObject);
    if (tooLarge !== undefined) throw new HttpFailure(400, `tools[${i}].parameters is ${tooLarge}: send a smaller schema`);
    // Sent with every model request of the run: megabytes of descriptions would be in each.
    const description = typeof tool.description === 'string' ? tool.description : '';
    budget.add(i, tool.name, description, parameters as JsonObject);
    // Found now, not at each call: a looping `$ref` overflowed the stack (300 ms) at every call,
    // and a URL's failed to compile at every call. After the budget, so at most 128 KiB of
    // schemas is compiled; the validator is kept (one per schema object) for the calls.
    const why = unusableRefs(parameters) ?? compileError(parameters) ?? unenforcedPattern(parameters);
    if (why !== undefined) throw new HttpFailure(400, `tools[${i}] ("${tool.name}").parameters cannot be checked against: ${why}; send a schema without it`);
    return {
      name: tool.name,
      description,
      parameters: parameters as JsonObject,
      // The wait for the person at the frontend has its own bound, not the agent's tool timeout.
      timeoutMs: waitMs,
      execute: (_args, context) => calls.wait(context.callId, context.signal),
    };
  });
}

/**
 * A pattern the validator would not enforce (RE2 cannot run it), or `undefined`: refused here,
 * in this request's words, before `checkRunTools` refuses it in a library author's.
 */
function unenforcedPattern(schema: object): string | undefined {
  const [unenforced] = compileSchema(schema).unenforced;
  if (unenforced === undefined) return undefined;
  return `it has the pattern ${JSON.stringify(unenforced.pattern)}, which the linear-time regex engine (RE2) cannot run (${unenforced.reason})`;
}

/** Why the one validator cannot compile a schema, or `undefined` when it compiles. */
function compileError(schema: object): string | undefined {
  try {
    compileSchema(schema);
    return undefined;
  } catch (e) {
    return `it is no valid JSON schema (${errorMessage(e).slice(0, 300)})`;
  }
}
