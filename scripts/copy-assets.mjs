// Copies the non-TypeScript files the package ships (built-in agent definitions, the demo
// page's HTML/CSS/JS) next to the compiled code, so `dist/` resolves them exactly as `src/` does.
import { cpSync } from 'node:fs';

cpSync('src/subagent/builtin', 'dist/subagent/builtin', { recursive: true });
cpSync('src/web/page', 'dist/web/page', { recursive: true });
