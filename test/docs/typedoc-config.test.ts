import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

// What `npm run docs` is told (running typedoc itself takes minutes: it is `npm run docs`,
// with treatWarningsAsErrors): each entry's module is named as users import it, and the
// guides are rendered as pages of the reference, not copied as raw .md files.
const root = join(import.meta.dirname, '..', '..');
const read = (file: string): string => readFileSync(join(root, file), 'utf8');
const typedoc = JSON.parse(read('typedoc.json')) as { entryPoints: string[]; projectDocuments?: string[] };
const manifest = JSON.parse(read('package.json')) as { name: string; exports: Record<string, string | { types?: string }> };

/** The import path of an entry file: the package export whose types are its declarations. */
function importPath(entry: string): string | undefined {
  const types = `./${entry.replace(/^src\//, 'dist/').replace(/\.ts$/, '.d.ts')}`;
  const found = Object.entries(manifest.exports).find(([, target]) => typeof target === 'object' && target.types === types);
  return found && (found[0] === '.' ? manifest.name : `${manifest.name}/${found[0].slice(2)}`);
}

describe('the API reference (typedoc.json)', () => {
  it.each(typedoc.entryPoints)('names the module of %s as users import it', (entry) => {
    const path = importPath(entry);
    expect(path, `${entry} is no package export`).toBeDefined();
    // typedoc would otherwise call them "index", "client": names nobody can import.
    expect(read(entry)).toMatch(new RegExp(`^ \\* @module ${path}$`, 'm'));
  });

  it('renders every guide in docs/ as a page', () => {
    expect(typedoc.projectDocuments).toEqual(['docs/*.md']);
  });
});
