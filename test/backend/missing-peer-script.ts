// Run with block-peers.mjs: what a user without ioredis/bullmq sees.
import { HarnessEngine, ScriptedModel, redisBackend } from '../../src/index.js';

// The embedded default works without the peers...
const engine = new HarnessEngine({ model: new ScriptedModel(() => ({ text: 'fine' })) });
console.log(`embedded: ${(await engine.call('hi')).text}`);
// ...and the backend says what to install.
await redisBackend({ url: 'redis://127.0.0.1:6379' }).catch((e: Error & { code?: string }) => console.log(`${e.name} ${e.code}: ${e.message}`));
