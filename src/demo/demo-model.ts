import type { ChatMessage } from '../model/chat-message.js';
import type { ChatRequest } from '../model/chat-model.js';
import { ScriptedModel, type ScriptedReply } from '../model/scripted-model.js';

/** The three subtasks the demo's main agent hands out, and the tool each child uses. */
const JOBS = [
  { agent: 'explore', description: 'Map the layout', key: 'top-level', call: { name: 'list', args: { path: '.' } } },
  { agent: 'explore', description: 'Find the docs', key: 'Markdown', call: { name: 'glob', args: { pattern: '{*.md,docs/**/*.md}' } } },
  { agent: 'general', description: 'Count TODO comments', key: 'TODO', call: { name: 'grep', args: { pattern: 'TODO|FIXME', path: 'src' } } },
] as const;

const PROMPTS = {
  'top-level': 'List the top-level files and folders of the workspace and say what kind of project it is.',
  Markdown: 'Find the Markdown documentation files in the workspace and list the most important ones.',
  TODO: 'Search src/ for TODO and FIXME comments and report how many there are and where.',
} as const;

/**
 * The model behind `rxharness run --demo`: a {@link ScriptedModel} that plays a main agent
 * surveying the workspace through a `multitask` of three subagents, each of which really
 * calls a read-only tool on the workspace and reports what it found. Offline and
 * deterministic for a given workspace; text streams in small chunks so the run is watchable.
 *
 * @example
 * ```ts
 * const engine = new HarnessEngine({ model: createDemoModel(), workspace: process.cwd() });
 * ```
 */
export function createDemoModel(options: { chunkDelayMs?: number } = {}): ScriptedModel {
  return new ScriptedModel(respond, { id: 'rxharness-demo', chunkDelayMs: options.chunkDelayMs ?? 25, chunkSize: 10 });
}

function respond(request: ChatRequest): ScriptedReply {
  const turn = currentTurn(request.messages);
  return request.sender?.agentName === 'main' ? mainReply(turn) : childReply(turn);
}

/** The messages after the last user message, and that message. */
function currentTurn(messages: readonly ChatMessage[]): { prompt: string; tools: string[] } {
  let i = messages.length - 1;
  while (i > 0 && messages[i]!.role !== 'user') i--;
  const tools = messages.slice(i + 1).flatMap((m) => (m.role === 'tool' ? [m.content] : []));
  return { prompt: String(messages[i]?.content ?? ''), tools };
}

function mainReply(turn: { tools: string[] }): ScriptedReply {
  if (turn.tools.length === 0) {
    return {
      thinking: 'Three independent questions: layout, docs and open TODOs. They can run in parallel.',
      text: 'I will survey the project with three subagents working in parallel.',
      toolCalls: [
        {
          name: 'multitask',
          args: {
            tasks: JOBS.map((job, i) => ({ index: i + 1, agent_name: job.agent, prompt: PROMPTS[job.key], description: job.description })),
          },
        },
      ],
    };
  }
  const results = [...turn.tools[0]!.matchAll(/<description>(.*?)<\/description>.*?<result_content><!\[CDATA\[([\s\S]*?)\]\]><\/result_content>/g)];
  const lines = results.map(([, description, content], i) => `${i + 1}. ${description}: ${content!.split('\n')[0]}`);
  return { text: `Survey complete.\n${lines.join('\n')}` };
}

function childReply(turn: { prompt: string; tools: string[] }): ScriptedReply {
  const job = JOBS.find((j) => turn.prompt.includes(j.key)) ?? JOBS[0];
  if (turn.tools.length === 0) {
    return { thinking: `I will use ${job.call.name} to answer this.`, toolCalls: [{ name: job.call.name, args: job.call.args }] };
  }
  const output = turn.tools[0]!;
  const lines = output.startsWith('ERROR') ? [] : output.split('\n').filter((l) => l.trim() !== '');
  const sample = lines.slice(0, 5).join(', ');
  switch (job.key) {
    case 'top-level': {
      const kind = lines.includes('package.json') ? 'a Node.js project (package.json present)' : 'a project without package.json';
      return { text: `The workspace has ${lines.length} top-level entries (${sample}...). It looks like ${kind}.` };
    }
    case 'Markdown':
      return { text: `Found ${lines.length} Markdown files, for example: ${sample || 'none'}.` };
    default:
      return { text: `Found ${lines.length} TODO/FIXME lines in src/${lines.length ? `, e.g. ${lines[0]}` : ''}.` };
  }
}
