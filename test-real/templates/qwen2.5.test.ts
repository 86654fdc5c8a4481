import { templateSuite } from '../checks/template-suite.js';

templateSuite('Qwen2.5');
