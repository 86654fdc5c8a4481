import { describe, expect, it } from 'vitest';
import { multitaskModelParameters, multitaskParameters, TASK_PARAMETERS, taskModelParameters } from '../../src/delegation/task-schemas.js';

// The delegation schemas are TypeBox schemas written once; these pin the contract's
// parameters (DESIGN.md, "Delegation tools") and that each distinct schema is one object,
// so its validator compiles once however many agents hold the tool.

describe('the task and multitask schemas', () => {
  it('task: agent_name, prompt, description required; background and task_id optional; nothing else', () => {
    expect(JSON.parse(JSON.stringify(TASK_PARAMETERS))).toMatchObject({
      type: 'object',
      required: ['agent_name', 'prompt', 'description'],
      additionalProperties: false,
      properties: { agent_name: { type: 'string', minLength: 1 }, background: { type: 'boolean' }, task_id: { type: 'string' } },
    });
  });

  it('multitask: 1 to maxItems tasks of { index >= 1 (optional), agent_name, prompt, description }', () => {
    expect(JSON.parse(JSON.stringify(multitaskParameters(7)))).toMatchObject({
      required: ['tasks'],
      properties: {
        tasks: {
          type: 'array',
          minItems: 1,
          maxItems: 7,
          items: { required: ['agent_name', 'prompt', 'description'], properties: { index: { type: 'integer', minimum: 1 } }, additionalProperties: false },
        },
      },
    });
  });

  it('is one object per distinct schema, for the check and for what the model is offered', () => {
    expect(multitaskParameters(7)).toBe(multitaskParameters(7));
    expect(multitaskParameters(7)).not.toBe(multitaskParameters(8));
    expect(taskModelParameters(['a', 'b'])).toBe(taskModelParameters(['a', 'b']));
    expect(multitaskModelParameters(7, ['a'])).toBe(multitaskModelParameters(7, ['a']));
    expect(taskModelParameters([])).toBe(TASK_PARAMETERS);
  });

  it('offers the model an enum of the names it may give, in task and in every multitask entry', () => {
    expect(taskModelParameters(['a', 'b'])).toMatchObject({ properties: { agent_name: { type: 'string', enum: ['a', 'b'] } } });
    expect(multitaskModelParameters(3, ['x'])).toMatchObject({ properties: { tasks: { maxItems: 3, items: { properties: { agent_name: { enum: ['x'] } } } } } });
  });
});
