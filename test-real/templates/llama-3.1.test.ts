import { templateSuite } from '../checks/template-suite.js';

templateSuite('Llama-3.1');
