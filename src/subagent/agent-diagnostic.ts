/** A definition file (or folder) that was skipped or needs attention, and why. */
export interface AgentDiagnostic {
  /** The file or folder concerned (absolute when discovered), or a label for a code definition. */
  readonly file: string;
  /** What is wrong, without the file prefix. */
  readonly reason: string;
  /**
   * The agent the file defines, on the diagnostic that says why a readable definition was not
   * loaded (e.g. its `disallowedTools` names no tool): lets `rxharness run @name` say why
   * `name` is missing instead of only "unknown agent".
   */
  readonly agent?: string;
  /**
   * On the diagnostic of a user's own definition (`~/.rxharness/agents`) that a workspace's
   * file of the same name hides (the workspace is scanned first): that file. `rxharness run`
   * warns of it, since a cloned repository's prompt then runs under the user's agent's name.
   */
  readonly hiddenBy?: string;
}
