/** Approval settings: loading config.yaml, mode normalization, validation errors. */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  addToCommandAllowlist,
  DEFAULT_APPROVAL_SETTINGS,
  loadApprovalSettings,
  normalizeApprovalMode,
} from '../src/index.ts';

const home = (): string => process.env.HERMES_HOME as string;
const write = (text: string): void => writeFileSync(join(home(), 'config.yaml'), text);

describe('normalizeApprovalMode', () => {
  it.each([
    [undefined, 'smart'],
    [null, 'smart'],
    [false, 'off'],
    [true, 'manual'],
    ['  SMART  ', 'smart'],
    ['Manual', 'manual'],
    ['off', 'off'],
  ] as const)('%j → %s without a warning', (raw, mode) => {
    const warnings: string[] = [];
    expect(normalizeApprovalMode(raw, (w) => warnings.push(w))).toBe(mode);
    expect(warnings).toEqual([]);
  });

  it.each(['', 'yes please', 42])('%j → manual with exactly one warning', (raw) => {
    const warnings: string[] = [];
    expect(normalizeApprovalMode(raw, (w) => warnings.push(w))).toBe('manual');
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain('approvals.mode');
  });
});

describe('loadApprovalSettings', () => {
  it('returns the defaults when config.yaml is absent', () => {
    expect(loadApprovalSettings(home(), { env: {} })).toEqual(DEFAULT_APPROVAL_SETTINGS);
  });

  it('reads the approvals section and the environment', () => {
    write(
      'approvals:\n  mode: "  OFF "\n  timeout: 120\n  cron_mode: approve\n  single_query_mode: deny\n' +
        '  deny: ["git push*"]\n  command_allowlist: [git_force_push]\ncommand_allowlist: ["npm publish"]\n',
    );
    const settings = loadApprovalSettings(home(), {
      env: { SUDO_PASSWORD: 'x', HERMES_YOLO_MODE: 'true' },
    });
    expect(settings).toEqual({
      mode: 'off',
      timeoutSeconds: 120,
      cronMode: 'approve',
      singleQueryMode: 'deny',
      subagentMode: 'deny',
      deny: ['git push*'],
      commandAllowlist: ['git_force_push', 'npm publish'],
      sudoPasswordConfigured: true,
      yolo: true,
    });
    expect(JSON.stringify(settings)).not.toContain('"x"');
  });

  it('names the bad field when the section is invalid', () => {
    write('approvals:\n  cron_mode: sometimes\n');
    expect(() => loadApprovalSettings(home())).toThrow(/approvals\.cron_mode/);
    write('approvals:\n  timeout: -1\n');
    expect(() => loadApprovalSettings(home())).toThrow(
      /approvals\.timeout: timeout must be a positive/,
    );
  });

  it('says the file is not valid YAML', () => {
    write('approvals: [unclosed\n');
    expect(() => loadApprovalSettings(home())).toThrow(/not valid YAML/);
  });

  it('warns once for an unknown mode and falls back to manual', () => {
    write('approvals:\n  mode: careful\n');
    const warnings: string[] = [];
    expect(loadApprovalSettings(home(), { onWarning: (w) => warnings.push(w) }).mode).toBe(
      'manual',
    );
    expect(warnings).toHaveLength(1);
  });
});

describe('addToCommandAllowlist', () => {
  it('creates the file, then appends without duplicates, keeping comments', () => {
    expect(addToCommandAllowlist(home(), ['recursive_delete'])).toEqual(['recursive_delete']);
    write(`# keep me\n${readFileSync(join(home(), 'config.yaml'), 'utf8')}`);
    expect(addToCommandAllowlist(home(), ['recursive_delete', 'git_force_push'])).toEqual([
      'git_force_push',
    ]);
    const settings = loadApprovalSettings(home());
    expect(settings.commandAllowlist).toEqual(['recursive_delete', 'git_force_push']);
    expect(readFileSync(join(home(), 'config.yaml'), 'utf8')).toContain('# keep me');
  });

  it('refuses to overwrite a file it cannot parse', () => {
    write('approvals: [unclosed\n');
    expect(() => addToCommandAllowlist(home(), ['x'])).toThrow(/not valid YAML/);
  });
});
