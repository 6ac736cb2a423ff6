#!/usr/bin/env node
/**
 * Start-up cost with 3 stdio servers and per-call overhead of the hub's tool handlers over raw
 * SDK calls. Runs against the built package: `npx tsup && node bench/startup-and-call.mjs`.
 */
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { McpHub, McpServersSectionSchema } from '../dist/index.js';

const here = (path) => fileURLToPath(new URL(path, import.meta.url));
const fixture = here('../test/fixtures/test-server.mjs');
const servers = {
  everything: { command: here('../node_modules/.bin/mcp-server-everything'), args: ['stdio'] },
  files: { command: here('../node_modules/.bin/mcp-server-filesystem'), args: [here('..')] },
  fixture: { command: process.execPath, args: [fixture] },
};
const ROUNDS = 5;
const CALLS = 300;
const ctx = {
  sessionId: 'bench',
  platform: 'cli',
  hermesHome: '/tmp',
  signal: new AbortController().signal,
};

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

async function rawStart() {
  const clients = await Promise.all(
    Object.values(servers).map(async ({ command, args }) => {
      const client = new Client({ name: 'bench', version: '0' });
      await client.connect(new StdioClientTransport({ command, args, stderr: 'ignore' }));
      await client.listTools();
      return client;
    }),
  );
  return clients;
}

async function startups() {
  const hubTimes = [];
  const rawTimes = [];
  for (let round = 0; round < ROUNDS; round++) {
    let started = performance.now();
    const hub = new McpHub({ servers: McpServersSectionSchema.parse(servers) });
    await hub.start();
    hubTimes.push(performance.now() - started);
    await hub.close();
    started = performance.now();
    const clients = await rawStart();
    rawTimes.push(performance.now() - started);
    await Promise.all(clients.map((c) => c.close()));
  }
  return { hub: median(hubTimes), raw: median(rawTimes) };
}

async function perCall() {
  const hub = new McpHub({ servers: McpServersSectionSchema.parse({ fixture: servers.fixture }) });
  await hub.start();
  const echo = hub.toolSpecs().find((s) => s.name === 'mcp_fixture_echo');
  const raw = new Client({ name: 'bench', version: '0' });
  await raw.connect(
    new StdioClientTransport({ command: process.execPath, args: [fixture], stderr: 'ignore' }),
  );
  const time = async (fn) => {
    for (let i = 0; i < 30; i++) await fn(i); // warm-up
    const started = performance.now();
    for (let i = 0; i < CALLS; i++) await fn(i);
    return ((performance.now() - started) / CALLS) * 1000;
  };
  const results = { hub: [], raw: [] };
  for (let round = 0; round < ROUNDS; round++) {
    results.raw.push(
      await time((i) => raw.callTool({ name: 'echo', arguments: { message: `m${i}` } })),
    );
    results.hub.push(await time((i) => echo.handler({ message: `m${i}` }, ctx)));
  }
  await hub.close();
  await raw.close();
  return { hub: median(results.hub), raw: median(results.raw) };
}

const start = await startups();
const call = await perCall();
console.log(`node ${process.version}, ${ROUNDS} rounds, medians`);
console.log(
  `start-up, 3 stdio servers in parallel: hub ${start.hub.toFixed(0)} ms, raw SDK ${start.raw.toFixed(0)} ms`,
);
console.log(
  `per call (echo, ${CALLS} sequential): hub ${call.hub.toFixed(0)} µs, raw SDK ${call.raw.toFixed(0)} µs, overhead ${(call.hub - call.raw).toFixed(0)} µs`,
);
