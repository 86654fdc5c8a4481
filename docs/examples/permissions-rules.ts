import { PermissionPolicy, type PermissionRule } from 'rxharness';

// The engine's permissionRules. Every rule a user gives ranks above the defaults.
const rules: PermissionRule[] = [
  { tool: 'bash', action: 'allow', pattern: 'git *' }, // git commands run without asking
  { tool: 'bash', action: 'deny', pattern: 'git push*', priority: 10 }, // ...but never a push
  { tool: 'bash', action: 'ask', pattern: 'git commit*' }, // ties with the allow: ask beats allow
  { tool: 'read', action: 'allow', pattern: '.env.example' }, // overrides the default ask for .env.*
  { tool: '*', action: 'deny', pattern: 'secrets/**' }, // every tool, that folder and below
];
const policy = new PermissionPolicy({ rules });

const calls: [tool: string, subject: string][] = [
  ['bash', 'git status'],
  ['bash', 'git commit -m wip'],
  ['bash', 'git push --force'],
  ['bash', 'npm test'],
  ['read', 'src/index.ts'],
  ['read', '.env'],
  ['read', '.env.example'],
  ['write', 'secrets/key.pem'],
  ['grep', 'secrets'],
];
for (const [tool, subject] of calls) {
  const { action, reason } = policy.evaluate(tool, subject);
  console.log(`${tool} ${subject}`.padEnd(24), action.padEnd(5), reason);
}
