/**
 * What ssh writes: its log (`-E f`), its control socket (`-S f`), the files its `-o` settings
 * name (`UserKnownHostsFile`, `ControlPath`), and a local forward's unix socket (`-L
 * path:host:port`, `-o LocalForward=...`): `-R`'s local end is only connected to. Options
 * count after the host too, as ssh reads them there (`ssh h -E f ls`), up to the command. A
 * configuration file (`-F f`, `-o Include=f`, scp's and sftp's too) may set any of these, or a
 * `LocalCommand` that writes anything: such a line may write any path.
 *
 * @module
 */

/** A word of a command, as the shell parser gave it. */
interface Word {
  readonly text: string;
  readonly glob: boolean;
}

/** ssh's options taking a value. */
const SSH_VALUED = 'BbcDEeFIiJLlmOoPpQRSWw';
/** `-o` settings naming a file ssh writes. */
const FILE_SETTING = /^\s*(?:userknownhostsfile|controlpath)\s*[=\s]\s*(.+)$/is;
/** `-o LocalForward`: its first word is where it listens, a unix socket when it holds `/`. */
const FORWARD_SETTING = /^\s*localforward\s*[=\s]\s*(\S+)/is;
/** The ssh family, whose `-F` and `-o Include` read a configuration. */
export const SSH_CLIENTS: ReadonlySet<string> = new Set(['ssh', 'scp', 'sftp', 'slogin', 'autossh']);

/**
 * The files ssh with `args` writes (see the module).
 *
 * @example
 * ```ts
 * const w = (text: string) => ({ text, glob: false });
 * sshWrites([w('-L'), w('src/s:localhost:80'), w('h')]); // [w('src/s')]
 * sshWrites([w('h'), w('-E'), w('log'), w('ls'), w('-E'), w('x')]); // [w('log')]
 * ```
 */
export function sshWrites<W extends Word>(args: readonly W[]): W[] {
  const out: W[] = [];
  let operands = 0;
  for (let i = 0; i < args.length; i += 1) {
    const text = args[i]!.text;
    if (text === '--') break;
    if (!text.startsWith('-') || text === '-') {
      // The first operand is the host; ssh reads options after it, up to the command.
      if ((operands += 1) > 1) break;
      continue;
    }
    // The first letter taking a value takes the rest of the word, or the next one.
    const at = [...text.slice(1)].findIndex((c) => SSH_VALUED.includes(c)) + 1;
    if (at === 0) continue;
    const value = at < text.length - 1 ? { ...args[i]!, text: text.slice(at + 1) } : args[(i += 1)];
    if (value === undefined) break;
    const letter = text[at];
    if (letter === 'E' || letter === 'S') out.push(value);
    if (letter === 'L') out.push(...socket(value, value.text.split(':')[0]!));
    if (letter !== 'o') continue;
    const setting = FILE_SETTING.exec(value.text);
    if (setting !== null && setting[1]!.toLowerCase() !== 'none') out.push(...setting[1]!.trim().split(/\s+/).map((path) => ({ ...value, text: path })));
    const forward = FORWARD_SETTING.exec(value.text);
    if (forward !== null) out.push(...socket(value, forward[1]!));
  }
  return out;
}

/**
 * Why an ssh client (`base`) with `args` reads a configuration file that may write any path (`-F f`,
 * also in a cluster; `-o Include=f`), or `undefined`. `-F /dev/null` and `-F none` read none.
 */
export function sshConfigRead(base: string, args: readonly string[]): string | undefined {
  for (let i = 0; i < args.length; i += 1) {
    const text = args[i]!;
    if (text === '--') break;
    if (!text.startsWith('-')) continue;
    const at = [...text.slice(1)].findIndex((c) => SSH_VALUED.includes(c)) + 1;
    if (at === 0) continue;
    const value = at < text.length - 1 ? text.slice(at + 1) : args[(i += 1)];
    const file = text[at] === 'F' && value !== '/dev/null' && value !== 'none';
    if (file || (text[at] === 'o' && /^\s*include\b/i.test(value ?? ''))) {
      return `${base} reading a configuration file, which may write any path (its LocalCommand, ControlPath, log...)`;
    }
  }
  return undefined;
}

/** A forward's listening end, when it is a unix socket (a path: it holds `/`). */
function socket<W extends Word>(word: W, listen: string): W[] {
  return listen.includes('/') && !listen.startsWith('[') ? [{ ...word, text: listen }] : [];
}
