/**
 * The scene of the tests that give an engine MCP servers: a delegation fixture per test and a
 * marks file (what a test server writes down), closed in the order they must be: the test's
 * engines, then its fixture, then the marks file (a server may write its marks until it is closed).
 *
 * @module
 */
import { afterEach } from 'vitest';
import { delegationFixturePerTest } from '../../support/fixture-per-test.js';
import { marksFile, type Marks } from './mcp-configs.js';

/** The current test's fixture and marks file; see {@link mcpFixturePerTest}. */
export interface McpFixturePerTest {
  /** Starts the test's delegation fixture (see `delegationFixturePerTest`). */
  readonly startFixture: ReturnType<typeof delegationFixturePerTest>;
  /** A fresh marks file, removed after the test once its engines and fixture are closed. */
  newMarks(): Promise<Marks>;
}

/** Registers the after-hooks in that order and returns the way to make both; call once at the top of a test file. */
export function mcpFixturePerTest(): McpFixturePerTest {
  let marks: Marks | undefined;
  afterEach(async () => {
    await marks?.cleanup();
    marks = undefined;
  });
  // Registered after the afterEach above, so it runs first: this test's engines, then its fixture.
  const startFixture = delegationFixturePerTest();
  return { startFixture, newMarks: async () => (marks = await marksFile()) };
}

/** A model step calling tool `name` with `args`. */
export const toolCall = (name: string, args: Record<string, unknown> = {}) => ({ toolCalls: [{ name, arguments: args }] });
