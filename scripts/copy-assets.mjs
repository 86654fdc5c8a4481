// Copies the non-TypeScript files the package ships (built-in agent definitions) next to the
// compiled code, so `dist/` resolves them exactly as `src/` does.
import { cpSync } from 'node:fs';

cpSync('src/subagent/builtin', 'dist/subagent/builtin', { recursive: true });
