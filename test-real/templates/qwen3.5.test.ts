import { templateSuite } from '../checks/template-suite.js';

templateSuite('Qwen3.5');
