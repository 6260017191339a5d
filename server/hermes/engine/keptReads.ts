// The parts of the sources whose reads a status keeps apart from the rest's (sourceDigests.ts): the
// files users edit most between two status runs, and Hermes' own memory writes. After edits of
// these alone, only they are rendered again.
import type { PackedReads } from '../fs/recordingFs';

export const APART_PARTS = ['soul', 'memory', 'user'] as const;
export type ApartPart = (typeof APART_PARTS)[number];

/** What rendering read, per part kept apart and for the rest. */
export type KeptReads = Readonly<Record<ApartPart | 'rest', PackedReads>>;
