export type * from './chat-message.js';
export type * from './chat-model.js';
export { estimateTokens } from './estimate-tokens.js';
export { ModelError } from './model-error.js';
export { checkModelSettings, type ModelSettings, type NamedToolChoice } from './model-settings.js';
export { OpenAIChatModel, type OpenAIChatModelOptions } from './openai-chat-model.js';
export {
  ScriptedModel,
  type ScriptedModelOptions,
  type ScriptedReply,
  type ScriptedResponder,
  type ScriptedToolCall,
} from './scripted-model.js';
