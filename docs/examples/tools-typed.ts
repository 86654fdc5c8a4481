import { defineTool, HarnessEngine, ScriptedModel } from 'rxharness';
import { z } from 'zod';

// One schema: the model is offered its JSON schema, every call is checked against it, and
// `execute`'s arguments are typed from it ({ city: string; days: number }).
const forecast = defineTool({
  name: 'forecast',
  description: 'The weather forecast for a city.',
  input: z.object({
    city: z.string().min(1).describe('The city, e.g. "Lisbon".'),
    days: z.number().int().min(1).max(7).default(1),
  }),
  execute: ({ city, days }) => `${city}: sunny for ${days} day${days === 1 ? '' : 's'}`,
});

console.log(JSON.stringify(forecast.parameters));

// A scripted model: a call with a bad argument, one without `days`, then the answer.
const model = new ScriptedModel([
  { toolCalls: [{ name: 'forecast', args: { city: 'Lisbon', days: 'three' } }] },
  { toolCalls: [{ name: 'forecast', args: { city: 'Lisbon' } }] },
  { text: 'Sunny in Lisbon.' },
]);
const engine = new HarnessEngine({ model, tools: [forecast], subagentEnabled: false });

engine.stream('What is the weather in Lisbon?').subscribe((event) => {
  if (event.type === 'ToolCallEnd') console.log(event.error ?? event.text);
  if (event.type === 'RunEnd') console.log(event.text);
});
