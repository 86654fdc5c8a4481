/**
 * What a schema may say about its error messages, beside JSON schema's `description` (what a
 * value must be; the default message is `<subject> must be <description>, got <value>`).
 * The formatter that reads them is `schemaProblem` (schema-message.ts).
 */
export interface MessageAnnotations {
  readonly description?: string;
  /**
   * A message template in place of the default: one for any failed keyword of this schema, or
   * one per keyword (`{ pattern: '{subject} is empty' }`). Placeholders: see `schemaProblem`.
   * A property's own template (a string, or its `required` entry) also words its absence.
   */
  readonly errorMessage?: string | Readonly<Record<string, string>>;
  /**
   * Advice added in parentheses when the wrong value has one of `types` (JSON's: `string`,
   * `number`, `boolean`, `array`, `object`, `null`) and the checked object has no key `unless`.
   */
  readonly hint?: { readonly types: readonly string[]; readonly unless?: string; readonly text: string };
  /**
   * For a list: how a message names one of its items, in place of `<list> item <n>` /
   * `<list> at index <i>`: a template with `{subject}` (the list) and `{index}` (0-based).
   */
  readonly itemSubject?: string;
}
