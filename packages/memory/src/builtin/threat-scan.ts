/**
 * The content scan every memory write and every snapshot passes through. Memory entries are
 * injected into the system prompt of every later session, so text that tries to steer the model
 * (prompt injection), to ship secrets somewhere (exfiltration instructions) or to hide text from
 * the person reading the file (invisible Unicode) is refused.
 */

/** What kind of threat a pattern detects. */
export type MemoryThreatKind = 'prompt_injection' | 'exfiltration' | 'invisible_unicode';

/** One finding of {@link scanMemoryContent}. */
export interface MemoryThreat {
  readonly kind: MemoryThreatKind;
  /** A short, human description of what matched (never the matched secret itself). */
  readonly label: string;
}

interface ThreatPattern {
  readonly kind: MemoryThreatKind;
  readonly label: string;
  readonly pattern: RegExp;
}

const SECRET_WORDS =
  '(?:api[ _-]?keys?|secrets?|passwords?|passwd|tokens?|credentials?|private[ _-]?keys?|ssh[ _-]?keys?|\\.env|cookies?|session[ _-]?ids?)';

const PATTERNS: readonly ThreatPattern[] = [
  {
    kind: 'prompt_injection',
    label: 'instruction to ignore previous instructions',
    pattern:
      /\b(?:ignore|disregard|forget)\b[^.\n]{0,30}\b(?:previous|prior|above|earlier|preceding|all|any|your|system)\b[^.\n]{0,20}\b(?:instructions?|prompts?|directives?|rules)\b/i,
  },
  {
    kind: 'prompt_injection',
    label: 'role reassignment',
    pattern:
      /\byou are now\b|\bfrom now on,? you (?:are|will|must)\b|\bact as (?:an? )?(?:unrestricted|jailbroken|DAN)\b/i,
  },
  {
    kind: 'prompt_injection',
    label: 'fake system or chat-template marker',
    pattern: /<\|(?:im_start|im_end|system|endoftext)\|>|\[\/?(?:SYSTEM|INST)\]|<\/?system>/i,
  },
  {
    kind: 'prompt_injection',
    label: 'instruction to hide actions from the user',
    pattern:
      /\b(?:do not|don't|never)\s+(?:tell|inform|mention\s+(?:this|it)\s+to|reveal\s+(?:this|it)\s+to|let)\s+(?:the\s+)?user\b/i,
  },
  {
    kind: 'prompt_injection',
    label: 'new system prompt',
    pattern: /\b(?:new|updated|real|actual)\s+(?:system\s+)?(?:prompt|instructions)\s*:/i,
  },
  {
    kind: 'exfiltration',
    label: 'instruction to send secrets elsewhere',
    pattern: new RegExp(
      `\\b(?:send|upload|post|forward|email|exfiltrate|transmit|leak|share)\\b[^\\n]{0,60}${SECRET_WORDS}[^\\n]{0,60}\\b(?:to|at|via)\\b`,
      'i',
    ),
  },
  {
    kind: 'exfiltration',
    label: 'network command carrying secrets',
    pattern: new RegExp(
      `\\b(?:curl|wget|nc|netcat|scp|rsync)\\b[^\\n]{0,120}(?:\\$\\{?[A-Z_]*(?:KEY|TOKEN|SECRET|PASSWORD)[A-Z_]*|${SECRET_WORDS}|~\\/\\.ssh|\\/etc\\/(?:passwd|shadow))`,
      'i',
    ),
  },
  {
    kind: 'exfiltration',
    label: 'instruction to read credential files',
    pattern:
      /\b(?:cat|read|print|dump|copy)\b[^\n]{0,30}(?:~\/\.ssh\/|id_rsa|id_ed25519|\.aws\/credentials|\/etc\/shadow|\.netrc)/i,
  },
];

// Zero-width characters, bidirectional overrides and Unicode tag characters render as nothing
// (or reorder text), so a human reading MEMORY.md cannot see what the model would read.
const INVISIBLE =
  /[\u200B-\u200F\u202A-\u202E\u2060-\u2064\u2066-\u2069\uFEFF\u00AD\u180E]|[\u{E0000}-\u{E007F}]/u;

/** Returns what is dangerous about `text`, or `undefined` when it is safe to store and inject. */
export function scanMemoryContent(text: string): MemoryThreat | undefined {
  const hidden = INVISIBLE.exec(text);
  if (hidden) {
    const code = hidden[0].codePointAt(0)?.toString(16).toUpperCase().padStart(4, '0');
    return { kind: 'invisible_unicode', label: `invisible Unicode character U+${code}` };
  }
  for (const { kind, label, pattern } of PATTERNS) {
    if (pattern.test(text)) return { kind, label };
  }
  return undefined;
}

/** `prompt injection (role reassignment)`: a finding as the tool and the snapshot name it. */
export function describeMemoryThreat(threat: MemoryThreat): string {
  return `${threat.kind.replace('_', ' ')} (${threat.label})`;
}
