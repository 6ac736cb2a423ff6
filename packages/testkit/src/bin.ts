#!/usr/bin/env node
/** The `hermes-testkit` executable: everything it does goes through {@link main}. */
import { main } from './cli.js';

process.exitCode = await main(process.argv.slice(2));
