/**
 * What a terminal shows after a stream of text and the escapes log-update writes: enough of
 * one to count the copies of a tree left on the screen.
 *
 * @module
 */

/** The non-blank lines on screen after `raw`: text, `\n`, `\r`, CSI n A (up), n G (column), K / 2K (erase line), J (erase below); other escapes ignored. */
export function screenLines(raw: string): string[] {
  const lines: string[] = [''];
  let row = 0;
  let col = 0;
  for (const m of raw.matchAll(/\u001b\[([0-9;?]*)([A-Za-z])|\n|\r|[^\u001b\n\r]/gu)) {
    const t = m[0];
    if (t === '\n') {
      row += 1;
      col = 0;
      while (lines.length <= row) lines.push('');
    } else if (t === '\r') col = 0;
    else if (m[2] !== undefined) {
      const n = m[1] === '' || m[1]!.startsWith('?') ? 1 : Number(m[1]);
      if (m[2] === 'A') row = Math.max(0, row - n);
      else if (m[2] === 'G') col = n - 1;
      else if (m[2] === 'K') lines[row] = m[1] === '2' ? '' : lines[row]!.slice(0, col);
      else if (m[2] === 'J') lines.splice(row + 1);
    } else {
      const line = lines[row]!.padEnd(col);
      lines[row] = line.slice(0, col) + t + line.slice(col + 1);
      col += 1;
    }
  }
  return lines.filter((l) => l.trim() !== '');
}
