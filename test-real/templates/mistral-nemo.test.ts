import { templateSuite } from '../checks/template-suite.js';

templateSuite('Mistral-Nemo');
