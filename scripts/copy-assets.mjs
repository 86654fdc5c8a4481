// Copies the non-TypeScript files the package ships (built-in agent definitions, the demo
// page's HTML and CSS) next to the compiled code, so `dist/` resolves them exactly as `src/`
// does. The page's script is bundled by build-page.mjs.
import { cpSync, mkdirSync } from 'node:fs';

cpSync('src/subagent/builtin', 'dist/subagent/builtin', { recursive: true });
mkdirSync('dist/web/page', { recursive: true });
for (const file of ['index.html', 'page.css']) cpSync(`src/web/page/${file}`, `dist/web/page/${file}`);
