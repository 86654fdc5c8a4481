/**
 * Programs that write files whose names are in their data, not on the line: an archive
 * unpacked (`tar -x`, `unzip`, `cpio -i`...) or a patch applied (`patch`, `git apply`,
 * `git am`) may write any path, `.git/hooks/pre-commit` included (also under `tar -C dir`
 * or `unzip -d dir`: a member's path or a link it holds can lead out of that folder). Their
 * listing and testing modes (`tar -t`, `unzip -l`, `git apply --stat`) write nothing.
 *
 * @module
 */

/** tar's names: GNU's (`gtar` too, see `programKind`) and BSD's. */
const TARS = new Set(['tar', 'bsdtar']);
/** unzip's options that show, test or print members instead of writing them (`-l`, `-t`, `-v`, `-p`, `-c`, `-z`, `-Z`). */
const UNZIP_READS = 'ltvpczZ';
/** 7-Zip's and unrar's commands that write members. */
const EXTRACTS = new Set(['x', 'e']);
/** git options before its command that take the next word as a value. */
const GIT_VALUED = new Set(['-C', '-c', '--git-dir', '--work-tree', '--namespace', '--super-prefix', '--config-env']);
/** `git apply` options that only check or describe a patch (spelt in full), unless `--apply` is given too. */
const APPLY_READS = new Set(['--check', '--stat', '--numstat', '--summary']);

/** The programs {@link unseenWrite} knows: any other writes only what its line shows. */
export const UNSEEN_WRITERS: ReadonlySet<string> = new Set([...TARS, 'unzip', 'cpio', 'patch', '7z', '7za', '7zr', 'unrar', 'ar', 'jar', 'pax', 'git']);

/**
 * Why running `base` (written `shown`: `gtar` for tar) with `args` may write files the line does not name, or `undefined`.
 *
 * @example
 * ```ts
 * unseenWrite('tar', ['-xzf', 'a.tgz', '-C', 'out']); // 'tar extracting an archive, which may write any path'
 * unseenWrite('tar', ['-tf', 'a.tar']); // undefined
 * unseenWrite('unzip', ['-l', 'a.zip']); // undefined
 * ```
 */
export function unseenWrite(base: string, args: readonly string[], shown = base): string | undefined {
  if (TARS.has(base) && tarExtracts(args)) return `${shown} extracting an archive, which may write any path`;
  if (base === 'unzip' && !unzipReads(args)) return 'unzip extracting an archive, which may write any path';
  if (base === 'cpio' && cpioWrites(args)) return 'cpio extracting or copying files, which may write any path';
  if (base === 'patch' && !args.includes('--dry-run')) return 'patch applying a patch, which may write any path';
  if (['7z', '7za', '7zr', 'unrar', 'ar', 'jar'].includes(base) && extracts(args)) return `${base} extracting an archive, which may write any path`;
  if (base === 'pax' && args.some((a) => /^-[A-Za-z]*r/.test(a))) return 'pax extracting an archive, which may write any path';
  if (base === 'git') {
    const [command, ...rest] = gitCommand(args);
    if (command === 'am') return '"git am", which applies patches that may write any path';
    const reads = rest.some((a) => APPLY_READS.has(a)) && !rest.includes('--apply');
    if (command === 'apply' && !reads) return '"git apply", which applies a patch that may write any path';
  }
  return undefined;
}

/**
 * Whether tar extracts: `-x` (also in a cluster, `-xzf`), the old form's first word
 * (`tar xf a.tar`), `--extract` or `--get` (or a prefix of them GNU tar reads as one);
 * unless it extracts to its output only (`-O`, `--to-stdout`).
 */
function tarExtracts(args: readonly string[]): boolean {
  let extract = false;
  let toStdout = false;
  args.forEach((arg, i) => {
    const long = /^--([a-z-]+)/.exec(arg)?.[1];
    if (long !== undefined) {
      if ((long.length >= 3 && 'extract'.startsWith(long)) || (long.length >= 2 && 'get'.startsWith(long))) extract = true;
      if (long.length >= 4 && 'to-stdout'.startsWith(long)) toStdout = true;
      return;
    }
    // Every letter of a cluster counts, even one that may be a value (`-fx`): in doubt it extracts.
    const letters = arg.startsWith('-') ? arg.slice(1) : i === 0 ? arg : '';
    if (letters.includes('x')) extract = true;
    if (letters.includes('O')) toStdout = true;
  });
  return extract && !toStdout;
}

/**
 * Whether unzip only shows, tests or prints: a reading option among its options, which end
 * at the archive's name (after it `-x` takes member names: `unzip a.zip -x -l` extracts).
 * `-d dir` and `-P pw` take a value (`-d -l` extracts into `-l`), and a `-` before a letter
 * turns it off (`--l`, `-l-l`).
 */
function unzipReads(args: readonly string[]): boolean {
  const on = new Set<string>();
  // A `-` at a word's end may turn off the next word's first letter (`-q- -l`): in doubt it does.
  let negative = false;
  for (let i = 0; i < args.length && args[i]!.startsWith('-') && args[i] !== '-'; i += 1) {
    const letters = args[i]!.slice(1);
    for (let at = 0; at < letters.length; at += 1) {
      const letter = letters[at]!;
      if (letter === 'x') return false; // names to leave out follow: in doubt it extracts
      if (letter === 'd' || letter === 'P') {
        if (at === letters.length - 1) i += 1; // the value is the next word, else the rest of this one
        break;
      }
      if (letter === '-') negative = true;
      else {
        if (UNZIP_READS.includes(letter)) {
          if (negative) on.delete(letter);
          else on.add(letter);
        }
        negative = false;
      }
    }
  }
  return on.size > 0;
}

/** cpio writes files with `-i` / `--extract` (unless it lists them, `-t`) and with `-p` / `--pass-through`. */
function cpioWrites(args: readonly string[]): boolean {
  const letters = args.filter((a) => /^-[A-Za-z]/.test(a)).join('');
  const extract = /i/.test(letters) || args.some((a) => /^--ex/.test(a));
  const list = /t/.test(letters) || args.includes('--list');
  return (extract && !list) || /p/.test(letters) || args.some((a) => /^--pass/.test(a));
}

/** 7-Zip, unrar, ar and jar extract with a command word: `x` or `e` (ar and jar: a cluster holding `x`, `-x` too). */
function extracts(args: readonly string[]): boolean {
  const first = args.find((a) => !a.startsWith('-') || /^-[A-Za-z]+$/.test(a)) ?? '';
  const word = first.replace(/^-/, '');
  return EXTRACTS.has(word) || /x/.test(word);
}

/** git's command and the words after it, past git's own options (`git -C dir apply x` is `apply`, `x`). */
function gitCommand(args: readonly string[]): readonly string[] {
  let i = 0;
  while (i < args.length && args[i]!.startsWith('-')) i += GIT_VALUED.has(args[i]!) ? 2 : 1;
  return args.slice(i);
}
