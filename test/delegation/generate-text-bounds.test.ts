import { afterEach, describe, expect, it } from 'vitest';
import { GENERATE_LIMITS } from '../../src/delegation/generate-tool.js';
import type { JsonObject } from '../../src/events/json.js';
import { collect, own } from '../support/collect-events.js';
import { offlineEngine, type OfflineEngine } from '../support/offline-engine.js';
import { scriptedSteps } from '../support/scripted-routes.js';

let o: OfflineEngine | undefined;
afterEach(async () => {
  await o?.cleanup();
  o = undefined;
});

const fits = { name: 'fits', description: 'Fits.', system_prompt: 'You fit.' };
const call = (args: JsonObject) => ({ name: 'generate', args });

/** Runs one conversation of `generate` calls; the error (or undefined) of each call. */
async function generateAll(calls: readonly JsonObject[]) {
  o = await offlineEngine({ main: scriptedSteps({ toolCalls: calls.map(call) }, { text: 'done' }) }, []);
  const events = await collect(o.engine.stream('make agents'));
  expect(events.at(-1)).toMatchObject({ type: 'RunEnd', abnormal: false, text: 'done' });
  return own(events, 'ToolCallEnd').map((e) => e.error);
}

describe('the bounds on the text the model gives generate', () => {
  it('refuses an oversized name, description, prompt or list with an error result naming the argument and its limit, and registers nothing', async () => {
    const { nameChars, descriptionChars, promptChars, listItems, listItemChars } = GENERATE_LIMITS;
    const oversized = [
      { ...fits, name: 'n'.repeat(nameChars + 1) },
      { ...fits, name: 'd1', description: 'd'.repeat(descriptionChars + 1) },
      { ...fits, name: 'p1', system_prompt: 'p'.repeat(promptChars + 1) },
      { ...fits, name: 's1', skills: Array.from({ length: listItems + 1 }, (_, i) => `skill_${i}`) },
      { ...fits, name: 's2', skills: ['s'.repeat(listItemChars + 1)] },
      { ...fits, name: 't1', tools: ['t'.repeat(listItemChars + 1)] },
    ];
    const errors = await generateAll(oversized);
    expect(errors).toEqual([
      expect.stringMatching(new RegExp(`"name".*${nameChars}`)),
      expect.stringMatching(new RegExp(`"description".*${descriptionChars}`)),
      expect.stringMatching(new RegExp(`"system_prompt".*${promptChars}`)),
      expect.stringMatching(new RegExp(`"skills".*${listItems}`)),
      expect.stringMatching(new RegExp(`"skills\\.0".*${listItemChars}`)),
      expect.stringMatching(new RegExp(`"tools\\.0".*${listItemChars}`)),
    ]);
    for (const { name } of oversized) expect(await o!.engine.agents.get(name)).toBeUndefined();
  });

  it('takes text right at each limit', async () => {
    const { nameChars, descriptionChars, promptChars, listItems, listItemChars } = GENERATE_LIMITS;
    const name = 'n'.repeat(nameChars);
    const skills = Array.from({ length: listItems }, (_, i) => `${i}`.padEnd(listItemChars, 's'));
    const errors = await generateAll([{ name, description: 'd'.repeat(descriptionChars), system_prompt: 'p'.repeat(promptChars), skills }]);
    expect(errors).toEqual([undefined]);
    expect(await o!.engine.agents.get(name)).toMatchObject({ description: 'd'.repeat(descriptionChars) });
  });

  it('tells the model each limit in the schema it is offered', async () => {
    o = await offlineEngine({ main: scriptedSteps({ text: 'done' }) }, []);
    await collect(o.engine.stream('hi'));
    const spec = o.model.requests[0]!.tools!.find((t) => t.name === 'generate')!;
    expect(spec.parameters).toMatchObject({
      properties: {
        name: { maxLength: GENERATE_LIMITS.nameChars },
        description: { maxLength: GENERATE_LIMITS.descriptionChars },
        system_prompt: { maxLength: GENERATE_LIMITS.promptChars },
      },
    });
  });
});
