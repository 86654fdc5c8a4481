/**
 * Environment variables that hold a program's options (`LESS`, `MAKEFLAGS`...), by whether a
 * value makes the program run a command the line does not show.
 *
 * @module
 */
import { lessEnvironment } from '../less-environment.js';

/** An expansion or substitution (`$L`, `$(…)`, a backtick) in a value: options only known at run time, which may be any. */
const RUN_TIME_VALUE = /[$`]/;

/**
 * Whether less's options (`=-R`, `+=k f`: the text after the name `name`) run a command: `+!cmd`,
 * a lesskey file (see `less-environment`). The value the line inherits (`LESS="$LESS -R"`; the
 * parser writes `${LESS}` the same way) is the user's own, and is kept as a break between options;
 * any other expansion, or one with an operator (`${LESS,,}` may make `-K` a lesskey `-k`), is read
 * as options only known at run time. Added to an inherited value (`$LESS -R`, `LESS+=-R`), the
 * text may continue an open `+` command of it, read as less's commands: `!` and `|` run a shell there.
 */
function lessRuns(name: string): (text: string) => boolean {
  const inherited = new RegExp(`\\$${name}(?=$|[\\s$])`, 'g');
  return (text) => {
    const value = text.replace(/^\+?=/, '');
    const own = value.replace(inherited, ' ');
    if (RUN_TIME_VALUE.test(own)) return true;
    if ((own !== value || text.startsWith('+=')) && /[!|]/.test(own)) return true;
    return lessEnvironment(own).runs !== undefined;
  };
}

/** Whether make's options run a command: `--eval`, a makefile (`-E...`, `-f`), a variable its recipes run (`CC=rm\ x`). */
const makeRuns = (text: string): boolean => RUN_TIME_VALUE.test(text) || /[Ef]|eval|SHELL|=.*=/.test(text);

/**
 * Variables holding a program's options, by whether a value (the text after the name) makes it
 * run a command: less's `+!cmd` or a lesskey file (`LESS='+!rm f'`, `LESS=kkeys`), make's
 * `--eval`, a makefile (`MAKEFLAGS=-E...`) or a variable its recipes run (`MAKEFLAGS='CC=rm\ x'`).
 * Other values (`LESS='-R --squeeze-blank-lines'`, `MAKEFLAGS=-j4`) change nothing that runs.
 */
export const OPTION_VARIABLE: Readonly<Record<string, (text: string) => boolean>> = {
  LESS: lessRuns('LESS'),
  MORE: lessRuns('MORE'),
  MAKEFLAGS: makeRuns,
  GNUMAKEFLAGS: makeRuns,
  MFLAGS: makeRuns,
};
