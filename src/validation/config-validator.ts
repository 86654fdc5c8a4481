import type { ErrorObject } from 'ajv';
import { compileSchema } from './validator.js';

/**
 * One failed check of a configuration value: where (`['maxSteps']`, `['models', 'fast']`),
 * the value found there (`undefined` when missing), and the schema it had to match.
 */
export interface ConfigProblem {
  readonly path: readonly string[];
  readonly value: unknown;
  readonly schema: Readonly<Record<string, unknown>>;
  /** The unknown keys of an object, when that is the problem. */
  readonly unknownKeys?: readonly string[];
}

/**
 * A checker for configuration values from a JSON schema (a TypeBox schema is one), compiled
 * by the one validator ({@link compileSchema}) on first use. It answers the problems in the schema's order — unknown keys of an object
 * first, then a missing or wrong property — for the caller to word; none when the value
 * fits. Beyond JSON schema it knows `jsKind`: `'function'`, or the name of a method the
 * value must have (`{ jsKind: 'stream' }`: a ChatModel).
 *
 * @example
 * ```ts
 * const check = configValidator(Type.Object({ maxSteps: Type.Integer({ minimum: 1 }) }));
 * check({ maxSteps: 0 }); // [{ path: ['maxSteps'], value: 0, schema: { type: 'integer', minimum: 1 } }]
 * ```
 */
export function configValidator(schema: object): (value: unknown) => ConfigProblem[] {
  return (value) => {
    const { validate } = compileSchema(schema);
    if (validate(value)) return [];
    const errors = validate.errors ?? [];
    // One problem per object with unknown keys, naming them all (ajv reports one per key).
    const unknown = new Map<string, ErrorObject[]>();
    for (const e of errors) {
      if (e.keyword === 'additionalProperties') unknown.set(e.instancePath, [...(unknown.get(e.instancePath) ?? []), e]);
    }
    const extra = [...unknown].map(([at, list]): ConfigProblem => ({
      path: pointerParts(at),
      value: list[0]!.data,
      schema: list[0]!.parentSchema as Record<string, unknown>,
      unknownKeys: list.map((e) => String(e.params.additionalProperty)),
    }));
    return [...extra, ...errors.filter((e) => e.keyword !== 'additionalProperties').map(problemOf)];
  };
}

function problemOf(e: ErrorObject): ConfigProblem {
  if (e.keyword === 'required') {
    const key = String(e.params.missingProperty);
    const properties = (e.parentSchema as { properties?: Record<string, Record<string, unknown>> }).properties ?? {};
    return { path: [...pointerParts(e.instancePath), key], value: undefined, schema: properties[key] ?? {} };
  }
  return { path: pointerParts(e.instancePath), value: e.data, schema: (e.parentSchema ?? {}) as Record<string, unknown> };
}

/**
 * The keys of a JSON pointer (ajv's `instancePath`, `schemaPath`), escapes undone: the one
 * reading of them for both {@link configValidator} and `schemaProblem`.
 *
 * @example
 * ```ts
 * pointerParts('/models/fast'); // ['models', 'fast']
 * ```
 */
export function pointerParts(pointer: string): string[] {
  return pointer === '' ? [] : pointer.slice(1).split('/').map((part) => part.replaceAll('~1', '/').replaceAll('~0', '~'));
}
