// Generated from package.json by scripts/write-package-version.mjs: do not edit.

/** This package's version (package.json's `version`), e.g. the OpenTelemetry tracer scope's. */
export const PACKAGE_VERSION = '0.1.0';
