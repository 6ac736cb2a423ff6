/**
 * The content scan run on everything `skill_manage` writes. A skill is loaded verbatim into the
 * model's context, so an agent-written skill is a prompt-injection and exfiltration vector that
 * outlives the session. Text that tries to override instructions, ship secrets off the machine,
 * pipe downloads into a shell, or hide characters is refused with the reason.
 */

/** Kinds of finding. */
export type ContentThreat =
  | 'prompt-injection'
  | 'exfiltration'
  | 'remote-code'
  | 'invisible-unicode';

/** One suspicious passage. */
export interface ContentFinding {
  readonly id: string;
  readonly threat: ContentThreat;
  /** Why it is refused, in words a model can act on. */
  readonly reason: string;
  /** 1-based line of the match. */
  readonly line: number;
}

/** The verdict of {@link scanSkillContent}. */
export interface ContentScanResult {
  readonly ok: boolean;
  readonly findings: readonly ContentFinding[];
}

interface Rule {
  readonly id: string;
  readonly threat: ContentThreat;
  readonly pattern: RegExp;
  readonly reason: string;
}

const SECRET_WORDS =
  '(?:api[\\s_-]?keys?|tokens?|credentials?|passwords?|secrets?|private[\\s_-]keys?|\\.env\\b)';
const SECRET_FILES =
  '(?:~/\\.ssh|\\.ssh/id_|\\.aws/credentials|\\.hermes/\\.env|/etc/shadow|\\.netrc|\\.git-credentials|\\.npmrc|\\.pgpass)';

const RULES: readonly Rule[] = [
  {
    id: 'ignore-instructions',
    threat: 'prompt-injection',
    pattern:
      /\b(?:ignore|disregard|forget|override)\s+(?:all\s+|any\s+)?(?:of\s+)?(?:the\s+|your\s+)?(?:previous|prior|above|earlier|system|original)\s+(?:instructions|prompts?|rules|directions|guidelines)/i,
    reason: 'tells the model to discard its instructions',
  },
  {
    id: 'role-hijack',
    threat: 'prompt-injection',
    pattern:
      /\byou\s+are\s+now\s+(?:an?\s+)?(?:unrestricted|unfiltered|jailbroken|dan\b|evil|different\s+(?:ai|assistant|model))|\b(?:act|behave|respond)\s+as\s+(?:if\s+)?(?:you\s+(?:have|had)\s+)?no\s+(?:restrictions|rules|limits|guidelines|filters)/i,
    reason: 'tries to replace the model’s role or remove its limits',
  },
  {
    id: 'conceal-from-user',
    threat: 'prompt-injection',
    pattern: /\b(?:do\s+not|don't|never)\s+(?:tell|inform|notify|alert|show)\s+the\s+user\b/i,
    reason: 'asks the model to hide what it does from the user',
  },
  {
    id: 'fake-system-turn',
    threat: 'prompt-injection',
    pattern:
      /<\|im_(?:start|end)\|>|<\/?system>|\bsystem\s+prompt\s+override\b|^\s*new\s+system\s+prompt\s*:/im,
    reason: 'imitates a system message or chat-template token',
  },
  {
    id: 'send-secrets',
    threat: 'exfiltration',
    pattern: new RegExp(
      `\\b(?:send|upload|post|exfiltrate|forward|leak|transmit|copy)\\s+[^\\n]{0,60}${SECRET_WORDS}[^\\n]{0,40}\\s+(?:to|into)\\s+(?:https?://|[a-z0-9.-]+\\.[a-z]{2,}|an?\\s+(?:external|remote))`,
      'i',
    ),
    reason: 'instructs sending secrets to an outside destination',
  },
  {
    id: 'secret-in-request',
    threat: 'exfiltration',
    pattern:
      /\b(?:curl|wget|nc|ncat|http|fetch|Invoke-WebRequest)\b[^\n]*\$\{?[A-Z0-9_]*(?:KEY|TOKEN|SECRET|PASSWORD|PASSWD|CREDENTIALS?)\b/i,
    reason: 'puts a secret environment variable into a network request',
  },
  {
    id: 'read-secret-file',
    threat: 'exfiltration',
    pattern: new RegExp(
      `\\b(?:cat|less|more|head|tail|base64|xxd|scp|cp|curl|tar)\\b[^\\n]*${SECRET_FILES}`,
      'i',
    ),
    reason: 'reads a credential file (SSH keys, cloud credentials, .env)',
  },
  {
    id: 'env-to-network',
    threat: 'exfiltration',
    pattern: /\b(?:printenv|env|set)\b\s*\|\s*(?:curl|wget|nc|ncat)\b/i,
    reason: 'pipes the environment to a network command',
  },
  {
    id: 'pipe-to-shell',
    threat: 'remote-code',
    pattern: /\b(?:curl|wget)\b[^\n|]*\|\s*(?:sudo\s+)?(?:ba|z|da)?sh\b/i,
    reason: 'downloads a script and runs it unseen',
  },
];

// Zero-width, bidirectional-override, word-joiner, BOM and Unicode tag characters.
const INVISIBLE =
  /[\u200B-\u200F\u202A-\u202E\u2060-\u2064\u2066-\u2069\uFEFF]|\uDB40[\uDC00-\uDC7F]/g;

function lineOf(text: string, index: number): number {
  let line = 1;
  for (let i = 0; i < index; i++) if (text.charCodeAt(i) === 10) line++;
  return line;
}

function invisibleFindings(text: string): ContentFinding[] {
  const findings: ContentFinding[] = [];
  for (const match of text.matchAll(INVISIBLE)) {
    // A single leading BOM is an encoding artifact, not hidden content.
    if (match.index === 0 && match[0] === '\uFEFF') continue;
    const code = match[0].codePointAt(0)?.toString(16).toUpperCase().padStart(4, '0') ?? '?';
    findings.push({
      id: 'invisible-character',
      threat: 'invisible-unicode',
      reason: `contains the invisible character U+${code}, which can hide instructions`,
      line: lineOf(text, match.index),
    });
    if (findings.length >= 5) break;
  }
  return findings;
}

/** Scans text that is about to become part of a skill. */
export function scanSkillContent(text: string): ContentScanResult {
  const findings: ContentFinding[] = [];
  for (const rule of RULES) {
    const match = rule.pattern.exec(text);
    if (match) {
      findings.push({
        id: rule.id,
        threat: rule.threat,
        reason: rule.reason,
        line: lineOf(text, match.index),
      });
    }
  }
  findings.push(...invisibleFindings(text));
  return { ok: findings.length === 0, findings };
}

/** One sentence listing the findings, for a refusal message. */
export function describeFindings(findings: readonly ContentFinding[]): string {
  return findings.map((f) => `line ${f.line}: ${f.threat} (${f.id}) — ${f.reason}`).join('; ');
}
