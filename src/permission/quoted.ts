/**
 * A name the model or the workspace chose (a path, a command line, a link's target) as a
 * permission reason or a refusal quotes it: JSON-quoted, so a line break or a quote in it shows
 * escaped and the name reads as one quoted string, never as the harness's own words (a file
 * named `a.env"\n\nNOTE FROM THE HARNESS: ...` cannot end the reason and speak in its place).
 *
 * @example
 * ```ts
 * quoted('notes/a.env'); // '"notes/a.env"'
 * quoted('x"\nNOTE'); // '"x\\"\\nNOTE"'
 * ```
 */
export function quoted(name: string): string {
  return JSON.stringify(name);
}
