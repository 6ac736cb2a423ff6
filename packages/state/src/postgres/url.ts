/** A PostgreSQL URL as it may be shown: the password replaced by `***`. */
export function redactPostgresUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString();
  } catch {
    return 'the configured PostgreSQL URL';
  }
}
