/**
 * Reads a workspace's definitions and skills the way `rxharness agents` does, in its own
 * process, and prints the diagnostics as JSON: a read that blocks (a named pipe) can then
 * be stopped by the test's timeout instead of freezing the test runner.
 *
 * node --import tsx test/subagent/planted-files-script.ts <workspace> <home>
 *
 * @module
 */
import { AgentManager } from '../../src/subagent/agent-manager.js';
import { standardAgentDirs } from '../../src/subagent/agent-dirs.js';
import { standardSkillDirs } from '../../src/subagent/skills/skill.js';

const [workspace, home] = process.argv.slice(2) as [string, string];
const agents = new AgentManager({
  dirs: standardAgentDirs({ workspace, home }),
  skillDirs: standardSkillDirs({ workspace, home }),
});
process.stdout.write(JSON.stringify(agents.diagnostics()));
