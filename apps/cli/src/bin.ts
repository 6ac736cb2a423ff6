#!/usr/bin/env node
/** The `hermes` executable: everything it does goes through {@link main}. */
import { runCommandLine } from '@hermes/config';
import { main } from './index.js';

await runCommandLine('hermes', main);
