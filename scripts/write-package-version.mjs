// Writes package.json's version into src/telemetry/package-version.ts, so the code knows its
// version without reading package.json at run time (a bundle has none next to it). Run by
// `npm run build` and by `npm version` (the "version" lifecycle script); the file is
// rewritten only when the version changed, so builds stay incremental.
// test/telemetry/package-version.test.ts fails when the two disagree.
import { readFileSync, writeFileSync } from 'node:fs';

const TARGET = 'src/telemetry/package-version.ts';
const { version } = JSON.parse(readFileSync('package.json', 'utf8'));
const text = `// Generated from package.json by scripts/write-package-version.mjs: do not edit.

/** This package's version (package.json's \`version\`), e.g. the OpenTelemetry tracer scope's. */
export const PACKAGE_VERSION = '${version}';
`;
if (readFileSync(TARGET, { encoding: 'utf8', flag: 'a+' }) !== text) writeFileSync(TARGET, text);
