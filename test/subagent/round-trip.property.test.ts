import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { defineAgent, formatAgentMarkdown, parseAgentMarkdown } from '../../src/subagent/index.js';
import { forbiddenKeyPath } from '../../src/subagent/plain-values.js';

// The body's line endings are normalised to \n on reading, so prompts are generated without \r.
const text = fc.string({ unit: 'grapheme', minLength: 1, maxLength: 60 })
  .filter((s) => s.trim() !== '' && !s.includes('\r'))
  .map((s) => s.trim());
const name = fc.stringMatching(/^[a-zA-Z0-9_-]{1,20}$/);
const toolName = fc.stringMatching(/^[a-z*][a-z_]{0,8}$/);
// fast-check favours keys like "__proto__" and "constructor", which no definition may hold.
const extraValue = fc.jsonValue({ maxDepth: 2 }).filter((value) => forbiddenKeyPath(value) === undefined);

describe('format → parse round trip', () => {
  it('gives back an equal definition for any valid input', () => {
    fc.assert(fc.property(
      name, text, text,
      fc.option(fc.uniqueArray(toolName, { maxLength: 5 }), { nil: undefined }),
      fc.option(fc.integer({ min: 1, max: 1000 }), { nil: undefined }),
      fc.boolean(), fc.boolean(),
      fc.dictionary(fc.stringMatching(/^x_[a-z]{1,6}$/), extraValue, { maxKeys: 3 }),
      (agentName, description, systemPrompt, tools, maxSteps, hidden, enabled, extra) => {
        const def = defineAgent({
          name: agentName, description, systemPrompt, hidden, enabled, extra,
          ...(tools === undefined ? {} : { tools }),
          ...(maxSteps === undefined ? {} : { maxSteps }),
        });
        expect(parseAgentMarkdown(formatAgentMarkdown(def), { source: 'runtime' })).toEqual(def);
      },
    ), { numRuns: 300, seed: 20240501 });
  });
});
