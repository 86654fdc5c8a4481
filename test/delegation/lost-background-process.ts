/**
 * A child process for `lost-background-restart.test.ts`: an engine on a `FileSessionStore`
 * whose main agent starts a background task in conversation `s1`, then prints `PARENT_DONE`
 * and waits to be killed (the test SIGKILLs it while the task is mid-run).
 */
import { HarnessEngine } from '../../src/engine/harness-engine.js';
import { OpenAIChatModel } from '../../src/model/openai-chat-model.js';
import { FileSessionStore } from '../../src/session/file-session-store.js';
import { testAgent } from '../support/agent-turns.js';

const { BASE_URL, WORKSPACE, HOME_DIR } = process.env as Record<string, string>;
const model = new OpenAIChatModel({ model: 'main-model', baseURL: BASE_URL, apiKey: 'test', maxRetries: 0 });
const engine = new HarnessEngine({ model, workspace: WORKSPACE, homeDir: HOME_DIR, sessions: new FileSessionStore(WORKSPACE, { home: HOME_DIR }) });
engine.agents.add(testAgent('alpha'));
await engine.call('start bg', { sessionId: 's1' });
process.stdout.write('PARENT_DONE\n');
setInterval(() => undefined, 1000); // killed by the test, never closed
