import { diag } from '@opentelemetry/api';

/**
 * Runs one call into the application's OpenTelemetry SDK, and turns a throw into a
 * diagnostic (the API's `diag` logger, silent unless the application set one) and
 * `fallback`. The SDK calls its span processors in line, without a `try`: one that throws
 * in `onStart` or `onEnd` (a custom processor, an exporter that fails synchronously) would
 * otherwise fail the run, or throw out of an unsubscribe. Telemetry never breaks a run.
 *
 * @example
 * ```ts
 * guarded('end a span', () => span.end(), undefined);
 * ```
 */
export function guarded<T>(what: string, call: () => T, fallback: T): T {
  try {
    return call();
  } catch (e) {
    diag.warn(`rxharness: could not ${what}; the run goes on without it`, e);
    return fallback;
  }
}
