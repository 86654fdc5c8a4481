import { describe, expect, it } from 'vitest';
import { defineAgent } from '../../../src/subagent/define-agent.js';
import { formatAgentMarkdown } from '../../../src/subagent/format-agent-markdown.js';
import { parseAgentMarkdown } from '../../../src/subagent/parse-agent-markdown.js';

const file = (a2a: string, body = ''): string => `---\nname: reviewer\ndescription: Reviews pull requests remotely\na2a: ${a2a}\n---\n${body}`;

describe('the a2a key of a definition (a remote A2A agent)', () => {
  it('is read from front matter as the card URL; the body may then be empty', () => {
    const definition = parseAgentMarkdown(file('https://review.example.com/.well-known/agent-card.json'), { source: 'workspace', file: '/w/reviewer.md' });
    expect(definition).toMatchObject({ name: 'reviewer', a2a: 'https://review.example.com/.well-known/agent-card.json', systemPrompt: 'Reviews pull requests remotely' });
    expect(definition.extra).toEqual({});
  });

  it('refuses what is not an http(s) URL, naming the key and the file', () => {
    expect(() => parseAgentMarkdown(file('ftp://review.example.com/card.json'), { source: 'workspace', file: '/w/reviewer.md' })).toThrow(
      /\/w\/reviewer\.md.*"a2a" must be the http\(s\) URL of a remote A2A agent's card/,
    );
    expect(() => defineAgent({ name: 'r', description: 'd', systemPrompt: '', a2a: 'not a url' })).toThrow(/"a2a" must be the http\(s\) URL/);
  });

  it('a definition without it still needs a body', () => {
    expect(() => parseAgentMarkdown('---\nname: local\ndescription: d\n---\n', { source: 'workspace', file: '/w/local.md' })).toThrow(/the body .* is empty/);
  });

  it('is written back by formatAgentMarkdown, so a definition round-trips', () => {
    const definition = defineAgent({ name: 'reviewer', description: 'Reviews remotely', systemPrompt: '', a2a: 'http://127.0.0.1:4173/.well-known/agent-card.json' });
    const again = parseAgentMarkdown(formatAgentMarkdown(definition), { source: 'workspace' });
    expect(again.a2a).toBe('http://127.0.0.1:4173/.well-known/agent-card.json');
  });
});
