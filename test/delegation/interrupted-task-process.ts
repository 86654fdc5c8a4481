/**
 * A child process for `interrupted-task-kill.test.ts`: an engine on a `FileSessionStore` whose
 * main agent starts a foreground task in conversation `s1`; the test SIGKILLs it while the
 * child's model request hangs, so the parent's `task` call is saved with no result.
 */
import { HarnessEngine } from '../../src/engine/harness-engine.js';
import { OpenAIChatModel } from '../../src/model/openai-chat-model.js';
import { FileSessionStore } from '../../src/session/file-session-store.js';
import { testAgent } from '../support/agent-turns.js';

const { BASE_URL, WORKSPACE, HOME_DIR } = process.env as Record<string, string>;
const model = new OpenAIChatModel({ model: 'main-model', baseURL: BASE_URL, apiKey: 'test', maxRetries: 0 });
const engine = new HarnessEngine({ model, workspace: WORKSPACE, homeDir: HOME_DIR, sessions: new FileSessionStore(WORKSPACE, { home: HOME_DIR }) });
engine.agents.add(testAgent('alpha'));
await engine.call('start fg', { sessionId: 's1' });
process.stdout.write('UNEXPECTED_END\n');
