/**
 * Files of the workspace that a program runs by their name: make reads `Makefile` (and the
 * `-f` file), npm, pnpm, yarn and npx run `package.json` scripts and `node_modules` code,
 * `just`, `rake`, `cmake`, `cargo` and `ninja` their own files. A line that writes one of them and runs
 * that program (`echo 'x:;rm v' > Makefile; make`, `npm pkg set scripts.test=... && npm test`)
 * runs a command the line does not show, so it is unreadable. Written alone, these files are
 * ordinary source (the write tool does not ask for them): they run only when you run them.
 *
 * @module
 */
import { posix } from 'node:path';
import { commandShape } from '../command-shape.js';
import { foldCase } from '../../fold-case.js';
import { isMake } from './make-runs.js';
import { optionValues } from '../option-values.js';
import { patternsOverlap } from '../../pattern-overlap.js';
import type { CommandWrites, WrittenWord } from '../writes/written-words.js';
import { quoted } from '../../quoted.js';

/** A program the line runs, and the files it runs (command patterns, case folded: see `foldCase`). */
export interface FileRun {
  /** Its name as the line wrote it (without folder, case folded), for the reasons that quote it. */
  readonly program: string;
  /** Its name as the checks know it (`make` for `gmake`: see `commandBase`). */
  readonly kind: string;
  /** The files it reads from the folder it runs in (`makefile`, `*.mk`). */
  readonly here: readonly string[];
  /** The same files in any folder (`*\/makefile`): read when the line changes folder. */
  readonly anywhere: readonly string[];
}

const PACKAGE = ['package.json', 'node_modules/*'];
/** Each program, by name, and the files it runs (lower case; some file systems ignore case). */
const RUN_FILES: Readonly<Record<string, readonly string[]>> = {
  make: ['makefile', 'gnumakefile', '*.mk', '*.mak'],
  npm: PACKAGE,
  npx: PACKAGE,
  pnpm: [...PACKAGE, '.pnpmfile.cjs'],
  pnpx: PACKAGE,
  yarn: [...PACKAGE, '.pnp.cjs', '.yarn/*'],
  yarnpkg: [...PACKAGE, '.pnp.cjs', '.yarn/*'],
  just: ['justfile', '.justfile'],
  rake: ['rakefile', 'rakefile.rb', '*.rake'],
  cmake: ['cmakelists.txt', '*.cmake'],
  cargo: ['cargo.toml', 'build.rs', '.cargo/*'],
  ninja: ['build.ninja', '*.ninja'],
};
/** Package managers' options that run them in other folders (`--prefix`, `-w pkg`, `-r`): the files may be anywhere. */
const ELSEWHERE = /^(?:-[wCr]|--(?:prefix|workspaces?|dir|cwd|recursive|filter)|workspaces?$)/;
/** The other programs' options (or operands) that read their files from another folder or path: cmake's source folder (`cmake ..`, `-S`), a script (`-P`). */
const ELSEWHERE_OF: Readonly<Record<string, RegExp>> = {
  cmake: /^(?:-[SPB]|--build|--install|[^-])/,
  just: /^(?:-[fd]|--justfile|--working-directory)/,
  rake: /^(?:-[fCR]|--rakefile|--directory|--rakelib)/,
  cargo: /^(?:-C|--manifest-path)/,
  ninja: /^-[fC]/,
};

/**
 * The files `base` (written `shown`: `gmake` for make) runs with `args`, or `undefined` for a program that runs none. make's
 * `-f` / `--file` / `--makefile` files count too, and with `-C dir` the files in `dir` (and
 * `dir` itself: `ln -s evil sub; make -C sub`).
 *
 * @example
 * ```ts
 * filesRun('make', [{ text: '-f', glob: false }, { text: 'x', glob: false }])?.here; // ['makefile', ..., 'x']
 * filesRun('ls', []); // undefined
 * ```
 */
export function filesRun(base: string, args: readonly WrittenWord[], shown = base): FileRun | undefined {
  const names = RUN_FILES[base];
  if (names === undefined) return undefined;
  const here = [...names];
  let away = false;
  if (isMake(base)) {
    const files = optionValues(args, 'f', ['file', 'makefile']).map((value) => value.text);
    here.push(...files.map(literal));
    // `-C ./sub` is `sub` (written paths are compared normalised); its `-f` files are read from there.
    const dirs = optionValues(args, 'C', ['directory']).map((value) => posix.normalize(value.text).replace(/(.)\/+$/, '$1'));
    for (const dir of dirs) here.push(literal(dir), ...names.map((name) => `${literal(dir)}/${name}`), ...files.map((file) => literal(posix.join(dir, file))));
    // Each `-C` is relative to the one before (`-C a -C b` is `a/b`), and one leaving the folder
    // (`-C /home/u/ws/sub`, `-C ../ws/sub`, `-C ~/sub`) may lead back into it: the files may be anywhere.
    away = dirs.length > 1 || dirs.some((dir) => /^(?:\/|~|\.\.(?:\/|$))/.test(dir));
  }
  // ninja's `-f` file may have any name (`ninja -f rules.txt`).
  if (base === 'ninja') here.push(...optionValues(args, 'f', []).map((value) => literal(value.text)));
  const anywhere = here.map((name) => `*/${name}`);
  // make's `-C` is read above (its `-r` and `-w` move nothing).
  const elsewhere = away || (!isMake(base) && args.some((a) => (ELSEWHERE_OF[base] ?? ELSEWHERE).test(a.text)));
  return { program: shown, kind: base, here: elsewhere ? [...here, ...anywhere] : here, anywhere };
}

/**
 * Why a line that runs `runs` writes a file one of them runs, or `undefined`.
 *
 * @param writes - what the line's commands write (see `written-files`).
 * @param runs - the programs it runs that run files (see {@link filesRun}).
 */
export function ranFileWrite(writes: readonly CommandWrites[], runs: readonly FileRun[]): string | undefined {
  if (runs.length === 0) return undefined;
  // After a `cd` (or `git -C`...) a file written may be the one the program finds where it runs.
  const moved = writes.some((w) => w.chdir);
  for (const word of writes.flatMap(written)) {
    const shape = shapeOf(word);
    // A path that leaves the folder (`/home/u/ws/Makefile`, `../ws/Makefile`) may lead back into it.
    const outside = /^(?:\/|\.\.(?:\/|$))/.test(shape);
    const run = runs.find((r) => [...r.here, ...(moved || outside ? r.anywhere : [])].some((pattern) => patternsOverlap(pattern, shape)));
    if (run !== undefined) return `a write to a file ${run.program} runs (${quoted(word.text)}), and ${run.program} on the same line, which may run a command the line does not show`;
  }
  return undefined;
}

/**
 * The paths a command writes content to (exported for `linked-runs`, which follows them through links): its files, and each name a copy lands in a folder
 * (its contents too when the name ends in `/`: `rsync -a tpl/ .`). Removals and changes of mode
 * (`rm Makefile`) and writes from the repository (`git checkout main`) put no command there.
 */
export function written(writes: CommandWrites): WrittenWord[] {
  const files = writes.files.filter((f) => f.changes !== true);
  const joined = writes.joined.flatMap(({ dir, name, why }) => {
    if (why !== undefined || dir.changes === true) return [];
    // A url's query and fragment name no file (`curl -O https://x/Makefile?a=1` writes `Makefile`).
    const path = /^[a-z][a-z0-9+.-]*:\/\//i.test(name.text) ? name.text.replace(/[?#].*$/s, '') : name.text;
    const base = /\/\.?$|^\.$/.test(path) ? '*' : path.slice(path.lastIndexOf('/') + 1);
    return [{ text: `${dir.text.replace(/\/+$/, '')}/${base}`, glob: dir.glob || name.glob || base === '*' }];
  });
  return [...files, ...joined];
}

/** A written word as a case-folded command pattern: a part known only when it runs may hold `../`, so from there on it is `*`. */
function shapeOf(word: WrittenWord): string {
  const shape = commandShape('', [word]);
  if (shape === undefined) return literal(posix.normalize(word.text));
  const onlyGlob = !word.text.includes('$') && !/\{[^{}]*(?:,|\.\.)[^{}]*\}/.test(word.text) && !word.text.startsWith('~');
  if (onlyGlob) return foldCase(posix.normalize(shape));
  const at = shape.search(/(?<!\\)[*?[]/);
  return foldCase(at < 0 ? shape : shape.slice(at));
}

/** A path as a pattern matches it literally, case folded (`ſub.txt` is `sub.txt` where case is ignored). */
function literal(path: string): string {
  return foldCase(path).replace(/[\\{}*?[\]()!@+]/g, (c) => `\\${c}`);
}
