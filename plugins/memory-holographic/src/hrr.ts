/**
 * Holographic reduced representations in phase form: every concept is a vector of angles in
 * [0, 2π). Binding adds angles, unbinding subtracts them, bundling takes the angle of the summed
 * unit phasors, and similarity is the mean cosine of the angle differences. Phase encoding avoids
 * the magnitude collapse of complex-valued HRRs and maps directly onto cosine similarity.
 */
import { createHash } from 'node:crypto';

/** The default dimension: about √1024 = 32 items fit in one bundle before it degrades. */
export const HRR_DIM = 1_024;

const TWO_PI = 2 * Math.PI;
const VALUES_PER_BLOCK = 16; // one SHA-256 digest = 32 bytes = 16 little-endian uint16 values
const PHASE_STEP = TWO_PI / 65_536;

/** A phase vector: angles in [0, 2π). */
export type PhaseVector = Float64Array;

function wrap(angle: number): number {
  const wrapped = angle % TWO_PI;
  return wrapped < 0 ? wrapped + TWO_PI : wrapped;
}

/**
 * The vector of one word, the same on every machine and every run: SHA-256 of `word:0`,
 * `word:1`, … read as little-endian uint16 values, scaled by 2π / 65,536, first `dim` kept.
 * Hashing (rather than a seeded random generator) is what makes it platform-independent.
 */
export function encodeAtom(word: string, dim: number = HRR_DIM): PhaseVector {
  const phases = new Float64Array(dim);
  const blocks = Math.ceil(dim / VALUES_PER_BLOCK);
  for (let block = 0; block < blocks; block++) {
    const digest = createHash('sha256').update(`${word}:${block}`, 'utf8').digest();
    for (let k = 0; k < VALUES_PER_BLOCK; k++) {
      const index = block * VALUES_PER_BLOCK + k;
      if (index >= dim) break;
      phases[index] = digest.readUInt16LE(k * 2) * PHASE_STEP;
    }
  }
  return phases;
}

/** Binds two vectors (circular convolution, in phase form: angle addition). */
export function bind(a: PhaseVector, b: PhaseVector): PhaseVector {
  const out = new Float64Array(a.length);
  for (let i = 0; i < a.length; i++) out[i] = wrap((a[i] ?? 0) + (b[i] ?? 0));
  return out;
}

/** Undoes {@link bind}: `unbind(bind(a, b), a)` equals `b`. */
export function unbind(memory: PhaseVector, key: PhaseVector): PhaseVector {
  const out = new Float64Array(memory.length);
  for (let i = 0; i < memory.length; i++) out[i] = wrap((memory[i] ?? 0) - (key[i] ?? 0));
  return out;
}

/**
 * Superposes vectors (the circular mean of their phasors): similar to each input. Returns
 * `undefined` for no input.
 */
export function bundle(vectors: readonly PhaseVector[]): PhaseVector | undefined {
  const first = vectors[0];
  if (!first) return undefined;
  const re = new Float64Array(first.length);
  const im = new Float64Array(first.length);
  for (const vector of vectors) addPhasors(re, im, vector, 1);
  return phasorAngles(re, im);
}

/** Adds `sign` × the unit phasors of `vector` into the running sums `re`/`im`. */
export function addPhasors(
  re: Float64Array,
  im: Float64Array,
  vector: PhaseVector,
  sign: 1 | -1,
): void {
  for (let i = 0; i < vector.length; i++) {
    const angle = vector[i] ?? 0;
    re[i] = (re[i] ?? 0) + sign * Math.cos(angle);
    im[i] = (im[i] ?? 0) + sign * Math.sin(angle);
  }
}

/** The angles of summed phasors. */
export function phasorAngles(re: Float64Array, im: Float64Array): PhaseVector {
  const out = new Float64Array(re.length);
  for (let i = 0; i < re.length; i++) out[i] = wrap(Math.atan2(im[i] ?? 0, re[i] ?? 0));
  return out;
}

/** Mean cosine of the angle differences: 1 identical, about 0 unrelated, -1 opposite. */
export function similarity(a: PhaseVector, b: PhaseVector): number {
  const n = Math.min(a.length, b.length);
  if (n === 0) return 0;
  let sum = 0;
  for (let i = 0; i < n; i++) sum += Math.cos((a[i] ?? 0) - (b[i] ?? 0));
  return sum / n;
}

/**
 * The expected signal-to-noise ratio of recalling one item from a bundle of `items` vectors of
 * dimension `dim`: √(dim / items). Below about 2 recall becomes unreliable; at dim 1,024 that is
 * past roughly 256 items, and quality visibly drops beyond √dim ≈ 32.
 */
export function snrEstimate(dim: number, items: number): number {
  return items > 0 ? Math.sqrt(dim / items) : Number.POSITIVE_INFINITY;
}

/** Packs a vector into 2 bytes per dimension (angle quantized to 1/65,536 of a turn). */
export function phasesToBlob(vector: PhaseVector): Buffer {
  const out = Buffer.allocUnsafe(vector.length * 2);
  for (let i = 0; i < vector.length; i++) {
    out.writeUInt16LE(Math.round((vector[i] ?? 0) / PHASE_STEP) % 65_536, i * 2);
  }
  return out;
}

/** Reads a vector written by {@link phasesToBlob}. */
export function blobToPhases(blob: Uint8Array): PhaseVector {
  const view = new DataView(blob.buffer, blob.byteOffset, blob.byteLength);
  const out = new Float64Array(blob.byteLength >> 1);
  for (let i = 0; i < out.length; i++) out[i] = view.getUint16(i * 2, true) * PHASE_STEP;
  return out;
}
