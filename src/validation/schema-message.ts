import type { ErrorObject } from 'ajv';
import { describeValue, kindOfValue, literalValue } from './describe-value.js';
import { pointerParts } from './json-pointer.js';
import type { MessageAnnotations } from './message-annotations.js';
import { subjectWords, type SubjectWording } from './message-subject.js';
import { compileSchema } from './validator.js';

export type { MessageAnnotations } from './message-annotations.js';

/** How the checked value was written, so a message names things as its source did. */
export interface MessageContext extends SubjectWording {
  /**
   * How `{value}` names a value: `described` (default; a document's: `the string "12"`,
   * `a mapping`) or `literal` (options given in code: `"12"`, `an object`, `undefined`).
   */
  readonly values?: 'described' | 'literal';
}

/** The first problem of a value, in words, with what it is about. */
export interface WordedProblem {
  readonly message: string;
  /** Where in the value (keys and indexes; a missing or unknown key is the last part). */
  readonly path: readonly string[];
  /** The schema whose keyword failed (ajv's `parentSchema`): the object's for a missing key. */
  readonly schema: Readonly<Record<string, unknown>>;
}

// Keywords whose message is not about what the value must be.
const BY_KEYWORD: Readonly<Record<string, string>> = {
  required: '{parent} has no "{name}"',
  additionalProperties: '{parent}: unknown key {unknown} (allowed: {known})',
};
const MUST_BE = '{subject} must be {description}, got {value}';
const PLACEHOLDER = /\{(subject|parent|name|in|value|json|type|description|known|unknown)\}/g;

type Located = { readonly error: ErrorObject; readonly path: readonly string[] };
type Annotated = MessageAnnotations & Readonly<Record<string, unknown>>;

/**
 * The one message formatter over the one validator's errors: the first problem of `data`
 * against `schema` (ajv `errors`, `verbose`), in words, or `undefined` when there is none.
 * The first problem is an unknown key of the whole object (a typo explains the rest), else the
 * one of the top-level key that comes first in `schema.properties` (problems of the whole
 * object last), the deepest in the value (`tools` item 2, not `tools`), and of those the most
 * specific (a broken `pattern` rather than the `type` of another branch of an `anyOf`, whose
 * own `description` speaks when only types failed).
 *
 * It is worded by the nearest schema above the failed keyword that has a `description` or an
 * `errorMessage` ({@link MessageAnnotations}); a missing key by its own schema's template if it
 * has one. Templates may use `{subject}` (the value's path: `"tools" item 2`, `"permissionRules"
 * at index 0: "action"`, the holder for the whole; see {@link MessageContext}), `{parent}` (its
 * container's), `{name}` (its key as spelled), `{in}` (`"settings": ` for a nested value, else
 * nothing), `{value}` (`the number 3`, or `3` for literal values), `{json}` (`3`), `{type}`
 * (`number`, `null`, `an array`), `{description}` (a missing key's own, else the wording
 * schema's), `{known}` (the keys an object allows) and `{unknown}` (every unknown key of the
 * object, quoted: `"a", "b"`). A missing key (`required`) or an unknown one
 * (`additionalProperties`) is the last part of its problem's path, so `{name}` names it.
 *
 * @example
 * ```ts
 * schemaProblem(schema, validate.errors, { maxSteps: 0 }, { holder: 'front matter', spelled: (p) => p.at(-1)! });
 * // '"maxSteps" must be a positive integer, got the number 0'
 * ```
 */
export function schemaProblem(schema: object, errors: readonly ErrorObject[], data: unknown, context: MessageContext): string | undefined {
  return wordedProblem(schema, errors, data, context)?.message;
}

/**
 * Checks `data` against `schema` with the one validator and words its first problem as
 * {@link schemaProblem} does, with the path and schema it is about; `undefined` when it fits.
 *
 * @example
 * ```ts
 * firstProblem({ type: 'integer', minimum: 1, description: 'a count' }, 0, { holder: 'the count', spelled: (p) => p.at(-1)! })?.message;
 * // 'the count must be a count, got the number 0'
 * ```
 */
export function firstProblem(schema: object, data: unknown, context: MessageContext): WordedProblem | undefined {
  const { validate } = compileSchema(schema);
  return validate(data) ? undefined : wordedProblem(schema, validate.errors ?? [], data, context);
}

function wordedProblem(schema: object, errors: readonly ErrorObject[], data: unknown, context: MessageContext): WordedProblem | undefined {
  const first = pick(schema, errors);
  if (first === undefined) return undefined;
  const { error, path } = first;
  const annotated = describing(schema, error.schemaPath);
  const missing = error.keyword === 'required' ? propertyOf(error, path.at(-1)!) : undefined;
  const template = templateOf(missing, 'required') ?? templateOf(annotated, error.keyword) ?? BY_KEYWORD[error.keyword] ?? MUST_BE;
  const value: unknown = error.keyword === 'required' ? undefined : error.data;
  const words = (at: readonly string[]): string => subjectWords(at, path.length, schema, data, context);
  const parentSchema = (error.parentSchema ?? {}) as Readonly<Record<string, unknown>>;
  const fill: Readonly<Record<string, () => string>> = {
    subject: () => words(path),
    parent: () => words(path.slice(0, -1)),
    name: () => context.spelled(path),
    in: () => (path.length > 1 ? `${words(path.slice(0, 1))}: ` : ''),
    value: () => (context.values === 'literal' ? literalValue(value) : describeValue(value)),
    json: () => JSON.stringify(value) ?? String(value),
    type: () => kindOfValue(value),
    description: () => missing?.description ?? annotated.description ?? 'valid',
    known: () => Object.keys((parentSchema as { properties?: object }).properties ?? {}).join(', '),
    unknown: () => unknownKeys(errors, error, path, context),
  };
  const message = template.replace(PLACEHOLDER, (_, name: string) => fill[name]!());
  return { message: message + hintOf(annotated, value, data), path, schema: parentSchema };
}

function pick(schema: object, errors: readonly ErrorObject[]): Located | undefined {
  if (errors.length === 0) return undefined;
  const order = Object.keys((schema as { properties?: object }).properties ?? {});
  const rank = ({ error, path }: Located): number => {
    if (error.keyword === 'additionalProperties' && error.instancePath === '') return -1;
    return path.length === 0 || !order.includes(path[0]!) ? order.length : order.indexOf(path[0]!);
  };
  const located = errors.map((error): Located => ({ error, path: [...pointerParts(error.instancePath), ...namedKey(error)] }));
  // Folded, not spread: `allErrors` gives one error per bad item, and a spread of 200,000 overflows the call stack.
  const top = located.reduce((least, l) => Math.min(least, rank(l)), Infinity);
  const ofKey = located.filter((l) => rank(l) === top);
  const depth = ofKey.reduce((most, l) => Math.max(most, l.path.length), -Infinity);
  const deepest = ofKey.filter((l) => l.path.length === depth);
  const branchOnly = (l: Located): boolean => l.error.keyword === 'type' || l.error.keyword === 'anyOf';
  return deepest.find((l) => !branchOnly(l)) ?? deepest.find((l) => l.error.keyword === 'anyOf') ?? deepest[0];
}

/** The nearest schema on the way to a failed keyword that says how to word it. */
function describing(root: object, schemaPath: string): Annotated {
  const along: unknown[] = [root];
  // ajv URI-encodes the keys of a schema path (a patternProperties key: `%5E.*%24`).
  for (const part of pointerParts(decodeURIComponent(schemaPath.replace(/^#/, ''))).slice(0, -1)) {
    along.push((along.at(-1) as Record<string, unknown> | undefined)?.[part]);
  }
  return along.reverse().find(speaks) ?? {};
}

function speaks(s: unknown): s is Annotated {
  return typeof s === 'object' && s !== null && (typeof (s as Annotated).description === 'string' || (s as Annotated).errorMessage !== undefined);
}

/** The schema of the key a `required` problem misses, when it says how to word it. */
function propertyOf(error: ErrorObject, key: string): Annotated | undefined {
  const own = (error.parentSchema as { properties?: Record<string, unknown> } | undefined)?.properties?.[key];
  return speaks(own) ? own : undefined;
}

function templateOf(schema: Annotated | undefined, keyword: string): string | undefined {
  const own = schema?.errorMessage;
  return typeof own === 'string' ? own : own?.[keyword];
}

/** The key a `required` or `additionalProperties` problem is about, as the last part of its path. */
function namedKey(error: ErrorObject): string[] {
  const key = error.params['missingProperty'] ?? error.params['additionalProperty'];
  return (error.keyword === 'required' || error.keyword === 'additionalProperties') && key !== undefined ? [String(key)] : [];
}

/** Every unknown key of the object an `additionalProperties` problem is in, quoted, as spelled. */
function unknownKeys(errors: readonly ErrorObject[], error: ErrorObject, path: readonly string[], context: MessageContext): string {
  const keys = errors
    .filter((e) => e.keyword === 'additionalProperties' && e.instancePath === error.instancePath)
    .map((e) => `"${context.spelled([...path.slice(0, -1), String(e.params['additionalProperty'])])}"`);
  return [...new Set(keys)].join(', ');
}

function hintOf(annotated: Annotated, value: unknown, data: unknown): string {
  const hint = annotated.hint;
  if (hint === undefined) return '';
  const type = value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value;
  const other = hint.unless === undefined ? undefined : (data as Record<string, unknown>)[hint.unless];
  return hint.types.includes(type) && (other === undefined || other === null) ? ` (${hint.text})` : '';
}
