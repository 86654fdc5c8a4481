import type { AgentDiagnostic } from './agent-diagnostic.js';
import { frontMatterChars } from './front-matter.js';

/**
 * The most characters of front matter one scanned folder's files may bring to the YAML
 * loader. Discovery is synchronous (it must answer before anything is awaited), and loading
 * YAML can cost seconds per megabyte (a long flow list): 256 planted files of 256 KiB of front
 * matter each held the process (and every session of a `serve`) for half a minute. A real
 * folder's front matters take a kilobyte or two each.
 */
export const MAX_FOLDER_YAML_CHARS = 512 * 1024;

/** Admits one folder's files to the YAML loader while their front matters fit {@link MAX_FOLDER_YAML_CHARS}. */
export interface YamlBudget {
  /** Whether the front matter of `text` (read from `file`) may be loaded; when not, a diagnostic names the file and what to do. */
  admits(text: string, file: string, diagnostics: AgentDiagnostic[]): boolean;
}

/**
 * A fresh {@link YamlBudget} for the folder `root` (named in its diagnostics).
 *
 * @example
 * ```ts
 * const yaml = yamlBudget('/repo/.rxharness/agents');
 * if (yaml.admits(text, file, diagnostics)) parseAgentMarkdown(text, { source: 'workspace', file });
 * ```
 */
export function yamlBudget(root: string): YamlBudget {
  let used = 0;
  return {
    admits(text, file, diagnostics) {
      const chars = frontMatterChars(text);
      if (used + chars <= MAX_FOLDER_YAML_CHARS) {
        used += chars;
        return true;
      }
      diagnostics.push({
        file,
        reason:
          `is not read: its front matter (${chars} characters) and those read before it from ${root} ` +
          `pass the ${MAX_FOLDER_YAML_CHARS} characters of front matter one folder may hold. ` +
          'Shorten the front matters (the system prompt belongs in the body, after the closing "---"), or move some files to another folder',
      });
      return false;
    },
  };
}
