import { mkdtemp, rm, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ReActAgentOptions } from '../../src/agent/agent-options.js';
import { ReActAgent } from '../../src/agent/react-agent.js';
import { scopeOfOptions } from '../../src/agent/resolve-agent-options.js';
import { problemOf } from '../../src/agent/resolve-workspace.js';
import type { ChatModel } from '../../src/model/chat-model.js';
import { ScriptedModel } from '../../src/model/scripted-model.js';
import { outcomeOf, typesOf } from '../support/collect.js';

const model = (): ScriptedModel => new ScriptedModel(() => ({ text: 'ok' }));

describe('invalid agent options fail at construction with a message naming the option', () => {
  it.each([0, -1, 1.5, Number.NaN])('maxSteps: %s', (maxSteps) => {
    expect(() => new ReActAgent({ model: model(), maxSteps })).toThrow(
      new RangeError(`ReActAgent: \`maxSteps\` must be a positive integer, got ${maxSteps}`),
    );
  });

  it('toolTimeoutMs: 0', () => {
    expect(() => new ReActAgent({ model: model(), toolTimeoutMs: 0 })).toThrow(/`toolTimeoutMs` must be an integer of milliseconds from 1 to 2147483647 .*, got 0/);
  });

  it('no model, or something that is not a ChatModel', () => {
    const hint = /ReActAgent: `model` must be a ChatModel/;
    expect(() => new ReActAgent({} as ReActAgentOptions)).toThrow(hint);
    expect(() => new ReActAgent({ model: { id: 'x' } as ChatModel })).toThrow(hint);
    expect(() => new ReActAgent(undefined as unknown as ReActAgentOptions)).toThrow(TypeError);
  });

  it('a workspace that does not exist', () => {
    expect(() => new ReActAgent({ model: model(), workspace: '/definitely/not/here' })).toThrow(
      'The workspace "/definitely/not/here" does not exist; pass an existing folder as `workspace`',
    );
  });

  it('a workspace that is a symlink loop is said to be one, not to be missing', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'rxharness-loop-'));
    try {
      await symlink(join(dir, 'b'), join(dir, 'a'));
      await symlink(join(dir, 'a'), join(dir, 'b'));
      expect(() => new ReActAgent({ model: model(), workspace: join(dir, 'a') })).toThrow(
        `The workspace "${join(dir, 'a')}" is a symlink loop; pass a folder (or a link that ends at one) as \`workspace\``,
      );
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  // Root reads every folder, so the denial cannot be made on disk where the suite runs as root (CI): the failure's code is mapped instead.
  it.each([
    ['EACCES', 'cannot be read'],
    ['EPERM', 'cannot be read'],
    ['ELOOP', 'is a symlink loop'],
    ['ENOENT', 'does not exist'],
    [undefined, 'does not exist'],
  ])('a workspace whose realpath fails with %s is said to be: %s', (code, problem) => {
    expect(problemOf(code)).toBe(problem);
  });
});

describe('an empty prompt', () => {
  it.each(['', '   \n'])('errors the stream at once (no RunStart, no request) for %j, and call() rejects', async (prompt) => {
    const scripted = model();
    const agent = new ReActAgent({ model: scripted });
    const { values, error } = await outcomeOf(agent.stream(prompt));
    expect(values).toEqual([]);
    expect(error).toBeInstanceOf(TypeError);
    expect((error as Error).message).toBe(`The prompt must be a non-empty string, got ${JSON.stringify(prompt)}`);
    await expect(agent.call(prompt)).rejects.toThrow('The prompt must be a non-empty string');
    expect(scripted.requests).toHaveLength(0);
  });

  it('rejects a prompt that is not a string', async () => {
    const agent = new ReActAgent({ model: model() });
    await expect(agent.call(undefined as unknown as string)).rejects.toThrow('The prompt must be a non-empty string, got undefined');
  });
});

describe('an agent whose scope is made when each run starts (what engine.agent(name) returns)', () => {
  it('a run whose scope cannot be made fails (an error, not a RunEnd); the next run tries again', async () => {
    let attempts = 0;
    const agent = ReActAgent.ofScope('lazy', () => {
      attempts += 1;
      if (attempts === 1) throw new Error('definition "lazy" not found yet');
      return scopeOfOptions({ name: 'lazy', model: model() });
    });
    expect(agent.name).toBe('lazy');
    const first = await outcomeOf(agent.stream('hi'));
    expect(first.values).toEqual([]);
    expect((first.error as Error).message).toBe('definition "lazy" not found yet');
    const second = await outcomeOf(agent.stream('hi'));
    expect(typesOf(second.values).at(-1)).toBe('RunEnd');
    expect(second.values.every((e) => e.agentName === 'lazy')).toBe(true);
    await agent.call('again');
    expect(attempts).toBe(3);
  });

  it('refuses an unknown option by name (engine wiring is not an option)', () => {
    expect(() => new ReActAgent({ model: model(), taskId: 't' } as never)).toThrow(/ReActAgent: unknown option "taskId"; known options: name, model/);
  });
});
