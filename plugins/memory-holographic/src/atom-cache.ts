/**
 * Word vectors and the fact / query vectors built from them. Hashing 64 SHA-256 blocks per word
 * and the trigonometry of bundling dominate encoding, so each word's vector is cached together
 * with its unit phasor (cos, sin): bundling and binding cached words is then plain arithmetic,
 * with a single `atan2` pass at the end.
 */
import { bind, encodeAtom, HRR_DIM, type PhaseVector, phasorAngles } from './hrr.js';
import { contentWords } from './text.js';

interface Atom {
  readonly phases: PhaseVector;
  readonly re: Float64Array;
  readonly im: Float64Array;
}

/** Caches word vectors and builds text, entity and fact vectors from them. */
export class AtomCache {
  private readonly atoms = new Map<string, Atom>();

  constructor(
    readonly dim: number = HRR_DIM,
    private readonly capacity = 50_000,
  ) {}

  /** The vector of `word` (see `encodeAtom`). */
  atom(word: string): PhaseVector {
    return this.entry(word).phases;
  }

  /** The role that marks the content part of a fact vector. */
  get contentRole(): PhaseVector {
    return this.atom('__hrr_role_content__');
  }

  /** The role that marks an entity part of a fact vector. */
  get entityRole(): PhaseVector {
    return this.atom('__hrr_role_entity__');
  }

  /** The bundle of a text's words, bound to the content role; `undefined` without words. */
  textVector(text: string): PhaseVector | undefined {
    const re = new Float64Array(this.dim);
    const im = new Float64Array(this.dim);
    return this.addText(re, im, text) ? phasorAngles(re, im) : undefined;
  }

  /** The key of an entity inside fact vectors. */
  entityKey(entity: string): PhaseVector {
    return bind(this.atom(entity.toLowerCase()), this.entityRole);
  }

  /** A fact's vector: its content (bound to the content role) bundled with its entities' keys. */
  factVector(content: string, entities: readonly string[]): PhaseVector {
    const re = new Float64Array(this.dim);
    const im = new Float64Array(this.dim);
    this.addText(re, im, content);
    const role = this.entry('__hrr_role_entity__');
    for (const entity of entities) this.addBound(re, im, this.entry(entity.toLowerCase()), role);
    if (entities.length === 0 && contentWords(content).length === 0) return this.contentRole;
    return phasorAngles(re, im);
  }

  private entry(word: string): Atom {
    let atom = this.atoms.get(word);
    if (!atom) {
      if (this.atoms.size >= this.capacity) this.atoms.clear();
      const phases = encodeAtom(word, this.dim);
      atom = { phases, re: phases.map(Math.cos), im: phases.map(Math.sin) };
      this.atoms.set(word, atom);
    }
    return atom;
  }

  /** Adds the unit phasor of (bundle of the text's words) ⊛ content role; false without words. */
  private addText(re: Float64Array, im: Float64Array, text: string): boolean {
    const words = contentWords(text);
    if (words.length === 0) return false;
    const sumRe = new Float64Array(this.dim);
    const sumIm = new Float64Array(this.dim);
    for (const word of words) {
      const atom = this.entry(word);
      for (let i = 0; i < this.dim; i++) {
        sumRe[i] = (sumRe[i] as number) + (atom.re[i] as number);
        sumIm[i] = (sumIm[i] as number) + (atom.im[i] as number);
      }
    }
    const role = this.entry('__hrr_role_content__');
    for (let i = 0; i < this.dim; i++) {
      const x = sumRe[i] as number;
      const y = sumIm[i] as number;
      const norm = Math.hypot(x, y);
      // The bundle's angle as a unit phasor (angle 0 when the words cancel out exactly).
      const ux = norm > 0 ? x / norm : 1;
      const uy = norm > 0 ? y / norm : 0;
      const rx = role.re[i] as number;
      const ry = role.im[i] as number;
      re[i] = (re[i] as number) + ux * rx - uy * ry;
      im[i] = (im[i] as number) + ux * ry + uy * rx;
    }
    return true;
  }

  /** Adds the unit phasor of `a` ⊛ `b` (binding adds angles, so phasors multiply). */
  private addBound(re: Float64Array, im: Float64Array, a: Atom, b: Atom): void {
    for (let i = 0; i < this.dim; i++) {
      const ax = a.re[i] as number;
      const ay = a.im[i] as number;
      const bx = b.re[i] as number;
      const by = b.im[i] as number;
      re[i] = (re[i] as number) + ax * bx - ay * by;
      im[i] = (im[i] as number) + ax * by + ay * bx;
    }
  }
}
