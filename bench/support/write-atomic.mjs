/**
 * Writes `text` to `file` whole or not at all, for the probes a benchmark reads while they
 * write: into `<file>.tmp`, then renamed over `file` (a rename within a folder is atomic). A
 * plain `writeFileSync` truncates first, so a reader that came in between read an empty file
 * and failed a whole load with "Unexpected end of JSON input".
 */
import { renameSync, writeFileSync } from 'node:fs';

export function writeAtomic(file, text) {
  const temporary = `${file}.tmp`;
  writeFileSync(temporary, text);
  renameSync(temporary, file);
}
