import { templateSuite } from '../checks/template-suite.js';

templateSuite('Functionary v3.2');
