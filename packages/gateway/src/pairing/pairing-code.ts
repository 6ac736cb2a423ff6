/** Pairing codes: short, typed by a person from one screen into another, so no look-alikes. */
import { randomInt } from 'node:crypto';

/** Letters and digits without the look-alikes 0/O and 1/I (Hermes' alphabet, 32 symbols). */
export const PAIRING_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';

/** Symbols per code: 32^8 ≈ 10^12, far beyond guessing within a code's hour of life. */
export const PAIRING_CODE_LENGTH = 8;

/** A fresh random code from a cryptographic source. */
export function generatePairingCode(): string {
  let code = '';
  for (let i = 0; i < PAIRING_CODE_LENGTH; i += 1) {
    code += PAIRING_ALPHABET[randomInt(PAIRING_ALPHABET.length)];
  }
  return code;
}

/**
 * The code as the owner typed it, made comparable: case and separators (`abcd-2345`, spaces)
 * do not matter.
 */
export function normalizePairingCode(typed: string): string {
  return typed.toUpperCase().replace(/[\s-]/g, '');
}
