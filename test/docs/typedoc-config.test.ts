import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import { describe, expect, it } from 'vitest';

// What `npm run docs` is told (running typedoc itself takes minutes: it is `npm run docs`,
// with treatWarningsAsErrors): each entry's module is named as users import it, and the
// guides are rendered as pages of the reference, not copied as raw .md files.
const root = join(import.meta.dirname, '..', '..');
const read = (file: string): string => readFileSync(join(root, file), 'utf8');
const typedoc = JSON.parse(read('typedoc.json')) as { entryPoints: string[]; readme?: string; projectDocuments?: string[] };
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

  it('renders every guide in docs/, and every Markdown file the README and the guides link to, as a page', () => {
    expect(typedoc.projectDocuments).toContain('docs/*.md');
    // A linked .md that is neither the readme (the index page) nor a project document would be
    // copied raw into docs/api/media/.
    const rendered = (file: string): boolean => file === typedoc.readme || typedoc.projectDocuments!.some((glob) => (glob.endsWith('/*.md') ? dirname(file) === glob.slice(0, -5) && file.endsWith('.md') : file === glob));
    const pages = ['README.md', ...readdirSync(join(root, 'docs')).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`)];
    const linked = pages.flatMap((page) =>
      [...read(page).matchAll(/\]\(([^)#\s]+\.md)(?:#[^)]*)?\)/g)].filter((m) => !/^[a-z]+:/.test(m[1]!)).map((m) => normalize(join(dirname(page), m[1]!))),
    );
    expect(linked.length).toBeGreaterThan(10);
    expect([...new Set(linked.filter((file) => !rendered(file)))]).toEqual([]);
  });
});
