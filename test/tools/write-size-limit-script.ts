/**
 * Runs the `write` tool once in a process of its own, so that the test can give that process
 * a file-size limit (`ulimit -f`): a write past the limit then fails half-way (EFBIG, after a
 * short write), a real mid-write failure. Prints the tool's result as JSON.
 *
 * node --import tsx test/tools/write-size-limit-script.ts <workspace> <path> <bytes>
 *
 * @module
 */
import { createWriteTool } from '../../src/tools/builtin/write.js';
import { createToolContext, runTool } from '../support/tool-context.js';

const [workspace, path, bytes] = process.argv.slice(2) as [string, string, string];
const result = await runTool(createWriteTool(), { path, content: 'x'.repeat(Number(bytes)) }, createToolContext({ workspace }));
process.stdout.write(JSON.stringify(result));
