/** A session with all of its messages as one JSON document (`hermes sessions export`). */
import { z } from 'zod';
import { SessionRecordSchema } from './session-record.js';
import { StoredMessageSchema } from './stored-message.js';

/** Version 1 of the export format; read back on import, so it has a schema. */
export const SessionExportSchema = z.object({
  format: z.literal('hermes.session'),
  version: z.literal(1),
  session: SessionRecordSchema,
  /** Every row, archived ones included, in id order. */
  messages: z.array(StoredMessageSchema),
});
export type SessionExport = z.infer<typeof SessionExportSchema>;
