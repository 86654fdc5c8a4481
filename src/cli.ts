#!/usr/bin/env node
import { processIO } from './cli/cli-io.js';
import { main } from './cli/main.js';

process.exitCode = await main(process.argv.slice(2), processIO());
