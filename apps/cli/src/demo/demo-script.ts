/**
 * The bundled demo conversation: what the user says, and the canned model replies the local
 * testkit server plays back. The tools, files and session store it exercises are real.
 */
import { type ScriptBuilder, script } from '@hermes/testkit';

/** The user's messages, in order; each matches one scripted exchange. */
export const DEMO_MESSAGES: readonly string[] = [
  'Write a short haiku about the sea to haiku.txt, then show me what is in this folder.',
  'Read it back to me and count its words.',
];

const HAIKU = 'grey waves fold and rise\nsalt wind carries gull voices\nthe tide keeps its time\n';

/** The model's side. `delayMs` paces the stream so a person can watch it (0 for tests and pipes). */
export function demoScript(delayMs: number): ScriptBuilder {
  return (
    script()
      // The session title, asked once after the first exchange; matched by its instructions, so it
      // answers that side request whenever it arrives and the conversation keeps its own order.
      .text('A sea haiku in a file')
      .match({ systemIncludes: 'short title' })
      .next()
      .reasoning('The user wants a file written and the folder listed: write_file, then ls.')
      .text("I'll write the haiku first.")
      .toolCall('write_file', { path: 'haiku.txt', content: HAIKU })
      .usage({ inputTokens: 2400, outputTokens: 60 })
      .delay(delayMs)
      .next()
      .toolCall('terminal', { command: 'ls -l' })
      .usage({ inputTokens: 300, outputTokens: 20, cacheReadTokens: 2400 })
      .delay(delayMs)
      .next()
      .text(
        'Done: haiku.txt is in the working folder, and `ls -l` shows it is the only file there.',
      )
      .usage({ inputTokens: 350, outputTokens: 25, cacheReadTokens: 2700 })
      .delay(delayMs)
      .next()
      .toolCall('read_file', { path: 'haiku.txt' })
      .usage({ inputTokens: 120, outputTokens: 18, cacheReadTokens: 3100 })
      .delay(delayMs)
      .next()
      .toolCall('terminal', { command: 'wc -w < haiku.txt' })
      .usage({ inputTokens: 140, outputTokens: 20, cacheReadTokens: 3250 })
      .delay(delayMs)
      .next()
      .text(`Here it is:\n\n${HAIKU}\nThat is 15 words, counted by \`wc -w\`.`)
      .usage({ inputTokens: 90, outputTokens: 45, cacheReadTokens: 3400 })
      .delay(delayMs)
  );
}
