/** A definition file (or folder) that was skipped or needs attention, and why. */
export interface AgentDiagnostic {
  /** The file or folder concerned (absolute when discovered), or a label for a code definition. */
  readonly file: string;
  /** What is wrong, without the file prefix. */
  readonly reason: string;
}
