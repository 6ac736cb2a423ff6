// A whole plugin: no build step and no node_modules — Hermes resolves '@hermes/plugin-sdk' to its own copy.
import { definePlugin } from '@hermes/plugin-sdk';

export default definePlugin({
  manifest: { name: 'hermes-plugin-hello', version: '1.0.0' },
  register(ctx) {
    // A tool the model can call; it joins the toolset "hello", enabled with the plugin.
    ctx.registerTool({
      schema: {
        type: 'function',
        function: {
          name: 'greet',
          description: 'Greets someone by name.',
          parameters: {
            type: 'object',
            properties: { who: { type: 'string' } },
            required: ['who'],
          },
        },
      },
      handler: (args) => `Hello, ${args.who}!`,
    });

    // Refuse one kind of command before it reaches the approval guard; the model reads the reason.
    ctx.registerHook('preToolCall', ({ toolName, args }) => {
      if (toolName === 'terminal' && /\brm\s+-rf\b/.test(String(args.command))) {
        return { block: 'The hello plugin does not allow rm -rf. Delete files one by one.' };
      }
    });

    // Add a line of context to every turn's request (never stored in the session).
    const style = ctx.config.style ?? 'short answers';
    ctx.registerHook('preLlmCall', () => ({ context: `The user prefers ${style}.` }));

    // `hermes hello [name]`
    ctx.registerCommand({
      name: 'hello',
      description: 'Print a greeting',
      run: (args) => {
        console.log(`Hello, ${args[0] ?? 'world'}!`);
        return 0;
      },
    });
  },
});
