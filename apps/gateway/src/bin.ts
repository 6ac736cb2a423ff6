#!/usr/bin/env node
/** The `hermes-gateway` executable: everything it does goes through {@link main}. */
import { runCommandLine } from '@hermes/config';
import { main } from './index.js';

await runCommandLine('hermes-gateway', main);
// A second signal during the drain returns before the drain ends (exit 130/143 at once), and an
// agent's leftover handle must not keep a stopped server alive: the exit code is final here.
process.exit(process.exitCode ?? 0);
