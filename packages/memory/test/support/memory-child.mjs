// A second Hermes process touching the same memory files, driven by the lock and drift tests.
// argv[2] is JSON: { entry, hermesHome, mode, count?, lockTimeoutMs? }. It prints one JSON line
// per step.
import { mkdirSync } from 'node:fs';
import { createInterface } from 'node:readline';

const config = JSON.parse(process.argv[2]);
const { BuiltinMemoryStore, withFileLock, writeMemoryFile, readMemoryFile } = await import(
  config.entry
);
const say = (step, extra = {}) => process.stdout.write(`${JSON.stringify({ step, ...extra })}\n`);
const lines = createInterface({ input: process.stdin });
const nextLine = () => new Promise((resolve) => lines.once('line', resolve));

const store = new BuiltinMemoryStore({
  hermesHome: config.hermesHome,
  ...(config.lockTimeoutMs ? { lock: { timeoutMs: config.lockTimeoutMs } } : {}),
});
const file = store.pathOf('memory');
mkdirSync(store.directory, { recursive: true });

if (config.mode === 'hold-lock') {
  // Take the lock the store uses, append an entry under it when told to, then release.
  await withFileLock(`${file}.lock`, async () => {
    say('locked');
    await nextLine();
    const { text } = await readMemoryFile(file);
    await writeMemoryFile(file, text ? `${text}\n§\nfrom the child` : 'from the child');
  });
  say('released');
} else if (config.mode === 'add') {
  for (let i = 0; i < (config.count ?? 1); i++) {
    const result = await store.write('memory', [
      { action: 'add', content: `${config.prefix} ${i}` },
    ]);
    if (!result.ok) {
      say('failed', { message: result.message });
      process.exit(1);
    }
  }
  say('done');
} else if (config.mode === 'die-holding-lock') {
  await withFileLock(`${file}.lock`, async () => {
    say('locked');
    process.exit(0); // the finally that would release never runs
  });
}
lines.close();
