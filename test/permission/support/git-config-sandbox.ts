import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';

/** Files under `src/` that `git config --global` may write when the line moves HOME or XDG_CONFIG_HOME there. */
const GLOBAL_FILES = ['src/.gitconfig', 'src/git/config', 'src/.config/git/config'] as const;

/**
 * A runner of lines in real bash, each in a fresh box whose HOME is an empty folder (no
 * `~/.gitconfig`) and with `src/git/config` and `src/.config/git/config` there, empty: it answers
 * whether the line wrote git's global configuration under `src/`. The boxes go after the file.
 */
export function gitConfigSandbox(prefix: string): (line: string) => boolean {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  return (line) => {
    const box = mkdtempSync(join(dir, 'box-'));
    for (const folder of ['h', 'src/git', 'src/.config/git']) mkdirSync(join(box, folder), { recursive: true });
    for (const file of GLOBAL_FILES.slice(1)) writeFileSync(join(box, file), '');
    spawnSync('bash', ['-c', line], { cwd: box, encoding: 'utf8', timeout: 20_000, env: { PATH: process.env.PATH, HOME: join(box, 'h') } });
    return GLOBAL_FILES.some((file) => existsSync(join(box, file)) && readFileSync(join(box, file), 'utf8') !== '');
  };
}
