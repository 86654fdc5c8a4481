import { Ajv, type ErrorObject } from 'ajv';

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

let shared: Ajv | undefined;

// Made on first use: most processes build a few engines, and ajv is not free to set up.
function ajv(): Ajv {
  if (shared) return shared;
  // verbose: each error carries the schema and the data it is about, for the messages;
  // strictNumbers: Infinity and NaN are not numbers (JSON cannot hold them; a config can).
  shared = new Ajv({ allErrors: true, strict: false, verbose: true, strictNumbers: true });
  // Configuration holds more than JSON: `jsKind` checks a function or an object with a method.
  shared.addKeyword({
    keyword: 'jsKind',
    schemaType: 'string',
    validate: (kind: string, data: unknown) =>
      kind === 'function' ? typeof data === 'function' : typeof (data as Record<string, unknown> | null)?.[kind] === 'function',
  });
  return shared;
}

/**
 * A checker for configuration values from a JSON schema (a TypeBox schema is one), compiled
 * on first use. It answers the problems in the schema's order — unknown keys of an object
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
  let validate: ReturnType<Ajv['compile']> | undefined;
  return (value) => {
    validate ??= ajv().compile(schema);
    if (validate(value)) return [];
    const errors = validate.errors ?? [];
    // One problem per object with unknown keys, naming them all (ajv reports one per key).
    const unknown = new Map<string, ErrorObject[]>();
    for (const e of errors) {
      if (e.keyword === 'additionalProperties') unknown.set(e.instancePath, [...(unknown.get(e.instancePath) ?? []), e]);
    }
    const extra = [...unknown].map(([at, list]): ConfigProblem => ({
      path: pathOf(at),
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
    return { path: [...pathOf(e.instancePath), key], value: undefined, schema: properties[key] ?? {} };
  }
  return { path: pathOf(e.instancePath), value: e.data, schema: (e.parentSchema ?? {}) as Record<string, unknown> };
}

/** `/models/fast` → `['models', 'fast']` (JSON pointer escapes undone). */
function pathOf(pointer: string): string[] {
  return pointer === '' ? [] : pointer.slice(1).split('/').map((part) => part.replaceAll('~1', '/').replaceAll('~0', '~'));
}
