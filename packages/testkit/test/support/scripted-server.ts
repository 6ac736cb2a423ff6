/** The per-test scripted server of the testkit's HTTP tests, closed after each test. */
import { afterEach } from 'vitest';
import {
  type ScriptedServer,
  type ScriptedServerOptions,
  type ScriptSource,
  startScriptedServer,
} from '../../src/server.ts';

/** The server a test file starts per test; call once at the top level of the file. */
export function useScriptedServer() {
  let server: ScriptedServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });
  return {
    /** Starts this test's server, answering from `source`. */
    async start(source: ScriptSource, options?: ScriptedServerOptions): Promise<ScriptedServer> {
      server = await startScriptedServer(source, options);
      return server;
    },
    /** This test's server; fails when the test started none. */
    current(): ScriptedServer {
      if (server === undefined) throw new Error('no server started in this test');
      return server;
    },
  };
}
