import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

/** A definition file's text with the given name (and optional extra front-matter lines). */
export function agentFile(name: string, extra = '', body = `You are ${name}.`): string {
  return `---\nname: ${name}\ndescription: The ${name} agent.\n${extra}---\n${body}\n`;
}

/** A temporary folder for one test; `write` creates files (and parents) inside it. */
export class TempDir {
  private constructor(readonly path: string) {}

  static async create(): Promise<TempDir> {
    return new TempDir(await mkdtemp(join(tmpdir(), 'rxharness-agents-')));
  }

  /** Writes `files` (relative path → text) and returns the absolute path of the first. */
  async write(files: Record<string, string>): Promise<void> {
    for (const [relative, text] of Object.entries(files)) {
      const file = join(this.path, relative);
      await mkdir(dirname(file), { recursive: true });
      await writeFile(file, text);
    }
  }

  join(...parts: string[]): string {
    return join(this.path, ...parts);
  }

  async remove(): Promise<void> {
    await rm(this.path, { recursive: true, force: true });
  }
}
