/** HRR phase vectors: deterministic atoms and the algebra the recall relies on. */
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  bind,
  blobToPhases,
  bundle,
  encodeAtom,
  HRR_DIM,
  phasesToBlob,
  similarity,
  snrEstimate,
  unbind,
} from '../src/index.js';

/**
 * SHA-256 of the little-endian uint16 phases of each word at dim 1,024 (equivalently, of the 64
 * concatenated digests of `word:0` … `word:63`), derived once outside this code and kept here.
 */
const FIXTURE: Record<string, string> = {
  vim: '99693d3f2edb8a2cf55470b85183c0c2a24d6600c17933d90c569b99b7ab4b6f',
  postgres: 'da68356b78ef39dd6bd2b6be11e70267cbfb5a6bc7dca2aa1b928f025391db46',
};

const fingerprint = (word: string) =>
  createHash('sha256')
    .update(phasesToBlob(encodeAtom(word)))
    .digest('hex');

describe('encodeAtom', () => {
  it('gives the same vector for the same word on every run (stored fixture hash)', () => {
    for (const [word, hash] of Object.entries(FIXTURE)) expect(fingerprint(word), word).toBe(hash);
    expect(fingerprint('vim')).toBe(fingerprint('vim'));
  });

  it('follows the SHA-256 counter-block construction exactly', () => {
    const digest = createHash('sha256').update('vim:0').digest();
    const atom = encodeAtom('vim');
    expect(atom).toHaveLength(HRR_DIM);
    expect(atom[0]).toBe(digest.readUInt16LE(0) * ((2 * Math.PI) / 65_536));
    expect(atom[15]).toBe(digest.readUInt16LE(30) * ((2 * Math.PI) / 65_536));
    const block1 = createHash('sha256').update('vim:1').digest();
    expect(atom[16]).toBe(block1.readUInt16LE(0) * ((2 * Math.PI) / 65_536));
    expect(encodeAtom('vim', 100)).toHaveLength(100);
  });

  it('makes different words nearly orthogonal', () => {
    expect(Math.abs(similarity(encodeAtom('vim'), encodeAtom('emacs')))).toBeLessThan(0.1);
    expect(similarity(encodeAtom('vim'), encodeAtom('vim'))).toBeCloseTo(1, 10);
  });
});

describe('bind, unbind, bundle, similarity, SNR', () => {
  const a = encodeAtom('editor');
  const b = encodeAtom('helix');
  const c = encodeAtom('database');

  it('unbind undoes bind, and a binding resembles neither input', () => {
    const bound = bind(a, b);
    expect(similarity(unbind(bound, a), b)).toBeCloseTo(1, 10);
    expect(Math.abs(similarity(bound, a))).toBeLessThan(0.1);
    expect(Math.abs(similarity(bound, b))).toBeLessThan(0.1);
  });

  it('a bundle resembles each member and not an outsider', () => {
    const packed = bundle([a, b]);
    if (!packed) throw new Error('bundle of two vectors is defined');
    expect(similarity(packed, a)).toBeGreaterThan(0.5);
    expect(similarity(packed, b)).toBeGreaterThan(0.5);
    expect(Math.abs(similarity(packed, c))).toBeLessThan(0.1);
    expect(bundle([])).toBeUndefined();
  });

  it('estimates SNR as √(dim / items)', () => {
    expect(snrEstimate(1024, 16)).toBe(8);
    expect(snrEstimate(1024, 0)).toBe(Number.POSITIVE_INFINITY);
  });

  it('stores vectors in 2 bytes per dimension with negligible error', () => {
    const blob = phasesToBlob(a);
    expect(blob.byteLength).toBe(2 * HRR_DIM);
    expect(similarity(blobToPhases(blob), a)).toBeGreaterThan(0.999_999);
  });
});
