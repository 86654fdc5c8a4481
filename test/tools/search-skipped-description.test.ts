import { describe, expect, it } from 'vitest';
import { createGlobTool } from '../../src/tools/builtin/glob.js';
import { createGrepTool } from '../../src/tools/builtin/grep.js';
import { findSearchFiles, SEARCH_SKIPPED_FOLDERS, skippedFoldersText } from '../../src/tools/search-files.js';
import { searchMatcher } from '../../src/tools/search-walk.js';
import { toolContextPerTest } from '../support/tool-context-per-test.js';

// The model reads in grep's and glob's descriptions which folders a search skips; they are
// built from the one list the walk ignores, so they name every folder really skipped.

const fresh = toolContextPerTest();

describe('the search descriptions name every folder a search skips', () => {
  it.each([createGrepTool(), createGlobTool()])('$name', (tool) => {
    for (const folder of SEARCH_SKIPPED_FOLDERS) expect(tool.description).toContain(folder);
    expect(tool.description).toContain(`skips ${tool.name === 'grep' ? 'binary files and ' : ''}the folders node_modules, .git and .rxharness/sessions.`);
  });

  it('the folders named are the ones a walk skips', async () => {
    await fresh.ws.file('kept.txt', 'x');
    for (const folder of SEARCH_SKIPPED_FOLDERS) await fresh.ws.file(`${folder}/skipped.txt`, 'x');
    expect(await findSearchFiles(fresh.ws.dir, searchMatcher('**/*'), fresh.context.signal)).toEqual(['kept.txt']);
    expect(skippedFoldersText()).toBe('node_modules, .git and .rxharness/sessions');
  });
});
