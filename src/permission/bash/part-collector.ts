/**
 * The reader's {@link PartSink} for one command line: it keeps what the reading finds (within
 * limits: a line too deep or too long to check is unreadable), judges the lines commands run,
 * and assembles the {@link CommandParts} the rules are matched against.
 *
 * @module
 */
import { evaluatingSyntax } from './code-in-data.js';
import { repeatingSyntax } from './shell-programs.js';
import { scanShellLine } from './shell-scan.js';
import type { CommandParts, PartRole, PartSink } from './part-sink.js';
import { isMake, makeSettings } from './runs/make-runs.js';
import { type FileRun, ranFileWrite } from './runs/run-files.js';
import { arithmeticSettings } from './set-names.js';
import { settings } from './simple-command.js';
import { analyseStatement } from './statement-words.js';
import { withHomeFolder } from './writes/home-folder.js';
import { withTempFolder } from './writes/temp-folder.js';
import type { CommandWrites } from './writes/written-files.js';

const MAX_DEPTH = 8;
const MAX_PARTS = 500;

/** Collects the parts of one command line (see `commandParts`). */
export class Collector implements PartSink {
  private readonly commands = new Set<string>();
  private readonly variants = new Set<string>();
  private readonly shapes = new Set<string>();
  private readonly writes: CommandWrites[] = [];
  private opaque: string | undefined;
  private repeating = false;
  private readonly fileRuns: FileRun[] = [];

  runs(run: FileRun): void {
    this.fileRuns.push(run);
  }

  // Variables the line sets for later commands, with whether they were set in a quiet line.
  private readonly settings: { readonly assignment: string; readonly quiet: boolean }[] = [];

  environment(assignments: readonly string[]): void {
    for (const assignment of assignments) this.settings.push({ assignment, quiet: this.quiet > 0 });
  }

  repeats(): void {
    this.repeating = true;
  }

  // For each write, how many settings the line made before it (mktemp reads `$TMPDIR` as they left it).
  private readonly settingsBefore: number[] = [];

  write(writes: CommandWrites): void {
    // Most commands write nothing: they share one empty answer, which is not kept.
    if (writes.files.length + writes.joined.length > 0 || writes.unseen !== undefined || writes.chdir) {
      this.writes.push(writes);
      this.settingsBefore.push(this.settings.length);
    }
  }

  shape(text: string): void {
    if (this.room()) this.shapes.add(text);
  }

  add(role: PartRole, text: string): void {
    if (this.room()) (role === 'command' ? this.commands : this.variants).add(text);
  }

  private room(): boolean {
    if (this.commands.size + this.variants.size + this.shapes.size >= MAX_PARTS) {
      this.opaque ??= 'too many commands to check'; // even in a quiet line: a part is lost
      return false;
    }
    return true;
  }

  // Above 0 while judging what only may be a command line: what it cannot read flags nothing.
  private quiet = 0;
  private readonly notes: { evaluates?: string; carries?: string } = {};

  flag(reason: string): void {
    if (this.quiet === 0) this.opaque ??= reason;
  }

  note(kind: 'evaluates' | 'carries', what: string): void {
    if (this.quiet === 0) this.notes[kind] ??= what;
  }

  line(text: string, role: PartRole, depth: number, quiet = false): void {
    if (depth > MAX_DEPTH) {
      this.opaque ??= 'commands nested too deeply to check'; // even in a quiet line: its parts are lost
      return;
    }
    if (quiet) this.quiet += 1;
    try {
      // Tested on every line read, inner ones too: `eval 'for ...'`, `sh -c "trap ..."`.
      if (repeatingSyntax(text)) this.repeating = true;
      const scanned = scanShellLine(text);
      if (scanned.opaque !== undefined) this.flag(scanned.opaque);
      const evaluates = evaluatingSyntax(text);
      if (evaluates !== undefined) this.note('evaluates', evaluates);
      if (scanned.substitutions.length > 0) this.note('carries', 'the output of a command ("$(...)" or backticks)');
      if (role === 'variant') this.add('variant', text);
      for (const statement of scanned.statements) analyseStatement(statement, role, depth, this);
      // What arithmetic assigns (`(( PATH = 1 ))`, `$(( $v = 1 ))`) is set as an assignment would be.
      settings(scanned.arithmetic.flatMap(arithmeticSettings), this);
      for (const inner of scanned.substitutions) this.line(inner, role, depth + 1);
    } finally {
      if (quiet) this.quiet -= 1;
    }
  }

  /** make on the line reads the variables it exported (in any order: a loop may set them before it runs): each value is judged as make's own `CC=...` is. */
  private environmentOfMake(): void {
    for (const { assignment, quiet } of this.settings) {
      const { unreadable, lines } = makeSettings([], [assignment]);
      if (unreadable !== undefined && !quiet) this.opaque ??= unreadable;
      for (const found of lines) this.line(found.text, 'variant', 1, quiet || !found.strict);
    }
  }

  result(line: string): CommandParts {
    const { evaluates, carries } = this.notes;
    // On a line that may run a command again (a loop, a function) a setting after mktemp may come before it too.
    const set = this.settings.map((s) => s.assignment);
    this.writes.forEach((w, i) => {
      const before = this.repeating ? set : set.slice(0, this.settingsBefore[i]);
      this.writes[i] = withHomeFolder(withTempFolder(w, before), before);
    });
    if (evaluates !== undefined && carries !== undefined) this.opaque ??= `${evaluates} and ${carries}, which bash may run as code`;
    // A file the line writes and a program on it runs (`echo ... > Makefile; make`), in any order: a loop may write before it runs.
    this.opaque ??= ranFileWrite(this.writes, this.fileRuns);
    if (this.fileRuns.some((run) => isMake(run.kind))) this.environmentOfMake();
    // A line of only assignments or comments runs no command: judge it as written.
    const commands = this.commands.size > 0 ? [...this.commands] : [line.replace(/\s+/g, ' ').trim()];
    const variants = [...this.variants].filter((v) => !this.commands.has(v));
    const shapes = this.shapes.size > 0 ? { shapes: Object.freeze([...this.shapes]) } : {};
    const writes = this.writes.length > 0 ? { writes: Object.freeze(this.writes) } : {};
    const parts = { commands: Object.freeze(commands), variants: Object.freeze(variants), ...shapes, ...writes, ...(this.repeating ? { repeats: true as const } : {}), ...(this.fileRuns.length > 0 ? { runs: Object.freeze([...this.fileRuns]) } : {}) };
    return Object.freeze(this.opaque === undefined ? parts : { ...parts, opaque: this.opaque });
  }
}
