import type { ErrorObject } from 'ajv';
import { pointerParts } from './config-validator.js';
import { describeValue } from './describe-value.js';

/**
 * What a schema may say about its error messages, beside JSON schema's `description` (what a
 * value must be; the default message is `<subject> must be <description>, got <value>`).
 */
export interface MessageAnnotations {
  readonly description?: string;
  /**
   * A message template in place of the default: one for any failed keyword of this schema, or
   * one per keyword (`{ pattern: '{subject} is empty' }`). Placeholders: see {@link schemaProblem}.
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

/** How the checked value was written, so a message names things as its source did. */
export interface MessageContext {
  /** What the whole value is called: `front matter`, `definition`. */
  readonly holder: string;
  /** How the source spelled the last key of `path` (a key renamed before the check: `max_turns`). */
  spelled(path: readonly string[]): string;
}

// Keywords whose message is not about what the value must be.
const BY_KEYWORD: Readonly<Record<string, string>> = {
  required: '{parent} has no "{name}"',
  additionalProperties: '{parent}: unknown key "{name}" (allowed: {known})',
};
const MUST_BE = '{subject} must be {description}, got {value}';
const PLACEHOLDER = /\{(subject|parent|name|in|value|json|description|known)\}/g;

type Located = { readonly error: ErrorObject; readonly path: readonly string[] };
type Annotated = MessageAnnotations & Readonly<Record<string, unknown>>;

/**
 * The one message formatter over the one validator's errors: the first problem of `data`
 * against `schema` (ajv `errors`, `verbose`), in words, or `undefined` when there is none.
 * The first problem is the one of the top-level key that comes first in `schema.properties`
 * (problems of the whole object last), the deepest in the value (`tools` item 2, not `tools`),
 * and of those the most specific (a broken `pattern` rather than the `type` of another branch
 * of an `anyOf`, whose own `description` speaks when only types failed).
 *
 * It is worded by the nearest schema above the failed keyword that has a `description` or an
 * `errorMessage` ({@link MessageAnnotations}). Templates may use `{subject}` (the value's
 * path: `"tools" item 2`, `"permissionRules" at index 0: "action"`, the holder for the whole),
 * `{parent}` (its container's), `{name}` (its key as spelled), `{in}` (`"settings": ` for a
 * nested value, else nothing), `{value}` (`the number 3`), `{json}` (`3`), `{description}`
 * and `{known}` (the keys an object allows). A missing key (`required`) or an unknown one
 * (`additionalProperties`) is the last part of its problem's path, so `{name}` names it.
 *
 * @example
 * ```ts
 * schemaProblem(schema, validate.errors, { maxSteps: 0 }, { holder: 'front matter', spelled: (p) => p.at(-1)! });
 * // '"maxSteps" must be a positive integer, got the number 0'
 * ```
 */
export function schemaProblem(schema: object, errors: readonly ErrorObject[], data: unknown, context: MessageContext): string | undefined {
  const first = firstProblem(schema, errors);
  if (first === undefined) return undefined;
  const { error, path } = first;
  const annotated = describing(schema, error.schemaPath);
  const own = annotated.errorMessage;
  const template = (typeof own === 'string' ? own : own?.[error.keyword]) ?? BY_KEYWORD[error.keyword] ?? MUST_BE;
  const value: unknown = error.keyword === 'required' ? undefined : error.data;
  const words = (at: readonly string[]): string => pathWords(at, path.length, schema, data, context);
  const fill: Readonly<Record<string, () => string>> = {
    subject: () => words(path),
    parent: () => words(path.slice(0, -1)),
    name: () => context.spelled(path),
    in: () => (path.length > 1 ? `${words(path.slice(0, 1))}: ` : ''),
    value: () => describeValue(value),
    json: () => JSON.stringify(value) ?? String(value),
    description: () => annotated.description ?? 'valid',
    known: () => Object.keys((error.parentSchema as { properties?: object } | undefined)?.properties ?? {}).join(', '),
  };
  const message = template.replace(PLACEHOLDER, (_, name: string) => fill[name]!());
  return message + hintOf(annotated, value, data);
}

function firstProblem(schema: object, errors: readonly ErrorObject[]): Located | undefined {
  if (errors.length === 0) return undefined;
  const order = Object.keys((schema as { properties?: object }).properties ?? {});
  const rank = ({ path }: Located): number => (path.length === 0 || !order.includes(path[0]!) ? order.length : order.indexOf(path[0]!));
  const located = errors.map((error): Located => ({
    error,
    path: [...pointerParts(error.instancePath), ...namedKey(error)],
  }));
  const top = Math.min(...located.map(rank));
  const ofKey = located.filter((l) => rank(l) === top);
  const depth = Math.max(...ofKey.map((l) => l.path.length));
  const deepest = ofKey.filter((l) => l.path.length === depth);
  const branchOnly = (l: Located): boolean => l.error.keyword === 'type' || l.error.keyword === 'anyOf';
  return deepest.find((l) => !branchOnly(l)) ?? deepest.find((l) => l.error.keyword === 'anyOf') ?? deepest[0];
}

/** The nearest schema on the way to a failed keyword that says how to word it. */
function describing(root: object, schemaPath: string): Annotated {
  const along: unknown[] = [root];
  for (const part of pointerParts(schemaPath.replace(/^#/, '')).slice(0, -1)) {
    along.push((along.at(-1) as Record<string, unknown> | undefined)?.[part]);
  }
  const speaks = (s: unknown): s is Annotated =>
    typeof s === 'object' && s !== null && (typeof (s as Annotated).description === 'string' || (s as Annotated).errorMessage !== undefined);
  return along.reverse().find(speaks) ?? {};
}

/** The key a `required` or `additionalProperties` problem is about, as the last part of its path. */
function namedKey(error: ErrorObject): string[] {
  const key = error.params['missingProperty'] ?? error.params['additionalProperty'];
  return (error.keyword === 'required' || error.keyword === 'additionalProperties') && key !== undefined ? [String(key)] : [];
}

/**
 * `"tools" item 2` (an item that is the problem), `"permissionRules" at index 0: "action"` (a
 * part of one), `"settings": "topP"`, or a list's own `itemSubject`; the holder for the whole.
 * `length` is the length of the problem's path: only its last part is an "item".
 */
function pathWords(path: readonly string[], length: number, schema: object, data: unknown, context: MessageContext): string {
  if (path.length === 0) return context.holder;
  let words = `"${context.spelled(path.slice(0, 1))}"`;
  let at = (data as Record<string, unknown>)[path[0]!];
  let node = (schema as { properties?: Record<string, Annotated> }).properties?.[path[0]!];
  for (let i = 1; i < path.length; i++) {
    const part = path[i]!;
    if (Array.isArray(at)) {
      const own = node?.itemSubject;
      const plain = i === length - 1 ? `${words} item ${Number(part) + 1}` : `${words} at index ${part}`;
      words = own === undefined ? plain : own.replace('{subject}', words).replace('{index}', part);
      node = node?.['items'] as Annotated | undefined;
    } else {
      words += `: "${context.spelled(path.slice(0, i + 1))}"`;
      node = (node?.['properties'] as Record<string, Annotated> | undefined)?.[part];
    }
    at = (at as Record<string, unknown> | undefined)?.[part];
  }
  return words;
}

function hintOf(annotated: Annotated, value: unknown, data: unknown): string {
  const hint = annotated.hint;
  if (hint === undefined) return '';
  const type = value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value;
  const other = hint.unless === undefined ? undefined : (data as Record<string, unknown>)[hint.unless];
  return hint.types.includes(type) && (other === undefined || other === null) ? ` (${hint.text})` : '';
}
