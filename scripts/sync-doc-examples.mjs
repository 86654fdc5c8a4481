// Copies each docs/examples/*.ts file into the guides, in place of the TypeScript block that
// follows its `<!-- example: docs/examples/x.ts -->` line (a missing block is inserted).
// The docs test checks the copies match, so run this after editing an example.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';

const guides = ['README.md', ...readdirSync('docs').filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`)];
for (const guide of guides) {
  const before = readFileSync(guide, 'utf8');
  const after = before.replace(
    /<!-- example: (\S+) -->\n(```(?:ts|typescript)\n[\s\S]*?\n```\n)?/g,
    (_all, file) => `<!-- example: ${file} -->\n\`\`\`ts\n${readFileSync(file, 'utf8').trim()}\n\`\`\`\n`,
  );
  if (after !== before) writeFileSync(guide, after);
}
