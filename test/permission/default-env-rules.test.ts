import { describe, expect, it } from 'vitest';
import { PermissionPolicy } from '../../src/permission/index.js';

// Secrets live in more than `.env` and `.env.*`: direnv's `.envrc`, `.env-prod`, `prod.env`.
describe('the default ask for files that tend to hold secrets', () => {
  const policy = new PermissionPolicy();

  it.each(['.env', '.env.local', '.envrc', '.env-prod', '.env_backup', 'prod.env', 'config/.envrc', 'deep/a/staging.env', './.env.production'])(
    'asks before reading, writing, editing or grepping %s',
    (path) => {
      for (const tool of ['read', 'write', 'edit', 'grep']) {
        expect(policy.evaluate(tool, path), `${tool} ${path}`).toMatchObject({ action: 'ask', reason: `${tool} asks for approval by default for "${path}"` });
      }
    },
  );

  it.each(['env/a.ts', 'environment.ts', 'src/env.ts', 'envy.md', 'a.environment'])('leaves %s alone', (path) => {
    expect(policy.evaluate('read', path).action).toBe('allow');
  });
});
