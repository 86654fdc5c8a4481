import { defineTool, ReActAgent, ScriptedModel, type Tool } from 'rxharness';
import { Type, type Static } from 'typebox';

// A TypeBox schema is a JSON schema: the model sees it as it is, ajv checks calls against
// it, and `Static` gives the type, for `execute` and for anyone else who needs it.
const MoveInput = Type.Object(
  {
    from: Type.String({ minLength: 1, description: 'The file to move, relative to the workspace.' }),
    to: Type.String({ minLength: 1, description: 'Where it goes.' }),
    overwrite: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);
type MoveArgs = Static<typeof MoveInput>; // { from: string; to: string; overwrite?: boolean }

const move: Tool<MoveArgs> = defineTool({
  name: 'move',
  description: 'Moves a file inside the workspace.',
  input: MoveInput,
  // Both paths are checked to stay inside the workspace, and the rules judge each of them.
  paths: ({ from, to }) => [from, to],
  subject: ({ from }) => from,
  execute: ({ from, to, overwrite = false }) => `would move ${from} to ${to}${overwrite ? ', overwriting' : ''}`,
});

console.log(Object.is(move.parameters, MoveInput)); // the schema itself, compiled once

// One call without `to`, one that fits: the first is refused with ajv's words, the run goes on.
const model = new ScriptedModel([
  { toolCalls: [{ name: 'move', args: { from: 'a.txt' } }, { name: 'move', args: { from: 'a.txt', to: 'b.txt' } }] },
  { text: 'Done.' },
]);
new ReActAgent({ model, tools: [move] }).stream('Move a.txt to b.txt').subscribe((event) => {
  if (event.type === 'ToolCallEnd') console.log(event.error ?? event.text);
});
