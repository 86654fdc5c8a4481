const SIMPLE: Readonly<Record<string, string>> = {
  a: '\u0007', b: '\b', e: '\u001b', E: '\u001b', f: '\f', n: '\n', r: '\r', t: '\t', v: '\v',
  '\\': '\\', "'": "'", '"': '"', '?': '?',
};

/**
 * Decodes the body of a bash ANSI-C quoted string (`$'...'`, without the `$'` and `'`), the
 * way bash does: `$'\x72m'` is `rm`. A command name spelt this way must be judged as the
 * name bash will run.
 *
 * @example
 * ```ts
 * decodeAnsiC('\\x72m'); // 'rm'
 * ```
 */
export function decodeAnsiC(body: string): string {
  let out = '';
  for (let i = 0; i < body.length; i++) {
    const char = body[i]!;
    if (char !== '\\' || i + 1 >= body.length) {
      out += char;
      continue;
    }
    const next = body[i + 1]!;
    if (SIMPLE[next] !== undefined) {
      out += SIMPLE[next];
      i += 1;
    } else if (next === 'x' || next === 'u' || next === 'U') {
      const max = next === 'x' ? 2 : next === 'u' ? 4 : 8;
      const digits = /^[0-9a-fA-F]+/.exec(body.slice(i + 2, i + 2 + max))?.[0] ?? '';
      out += digits === '' ? `\\${next}` : String.fromCodePoint(Math.min(Number.parseInt(digits, 16), 0x10ffff));
      i += 1 + digits.length;
    } else if (/[0-7]/.test(next)) {
      const digits = /^[0-7]{1,3}/.exec(body.slice(i + 1))![0];
      out += String.fromCharCode(Number.parseInt(digits, 8) & 0xff);
      i += digits.length;
    } else if (next === 'c' && i + 2 < body.length) {
      out += String.fromCharCode(body.charCodeAt(i + 2) & 0x1f);
      i += 2;
    } else {
      out += `\\${next}`;
      i += 1;
    }
  }
  return out;
}
