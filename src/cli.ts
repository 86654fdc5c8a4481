#!/usr/bin/env node
import { processIO } from './cli/cli-io.js';
import { endByHangupAtExit } from './cli/hangup-exit.js';
import { holdInterrupts } from './cli/hold-interrupts.js';
import { main } from './cli/main.js';
import { ignoreUnwatchedWriteErrors } from './cli/printed.js';

const io = processIO();
ignoreUnwatchedWriteErrors(io);
process.exitCode = await main(process.argv.slice(2), io);
holdInterrupts(io);
endByHangupAtExit(io);
