// examples/gateway-agents.mjs — run by this package's tests against a scripted model server.
// Reads HERMES_HOME/config.yaml and .env as both binaries do, then asks two sessions a question
// each through the gateway's agent factory (one session store, one registry for both).
import { ApprovalHandler } from '@hermes/approval';
import { resolveHermesHome } from '@hermes/config';
import { createAgentFactory, loadHermesConfig } from '@hermes/runtime';

class DenyAll extends ApprovalHandler {
  async request() {
    return 'deny'; // a chat would ask its user here
  }
}

const config = await loadHermesConfig({
  hermesHome: resolveHermesHome(process.env),
  env: process.env,
});
for (const warning of config.warnings) console.error(`warning: ${warning}`);
const api = config.platforms.find((platform) => platform.name === 'api_server');
console.log(`api_server: ${api?.enabled ? `on ${api.raw.host}:${api.raw.port}` : 'off'}`);

const { factory, close } = createAgentFactory(config);
try {
  for (const user of ['ada', 'grace']) {
    const { agent, close: release } = await factory({
      sessionKey: `agent:default:api_server:dm:${user}`,
      platform: 'api_server',
      userId: user,
      approvalHandler: new DenyAll(),
    });
    console.log(`${user}: ${await agent.chat(`Hello, I am ${user}.`)}`);
    await release(); // the gateway's cache does this when it evicts the agent
  }
} finally {
  await close();
}
