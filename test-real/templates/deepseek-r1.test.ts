import { templateSuite } from '../checks/template-suite.js';

templateSuite('DeepSeek-R1');
