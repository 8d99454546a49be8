// Sound channels: two play slots and a voice channel. Nothing is audible here; the
// state records what sounds where and until when, so scripts can poll it
// (currentsound, voicedone) and the trace can report starts and ends.
// Times are wall-clock units of 1/3 ms: sounds belong to the speakers, and go on while
// a lock or save window holds the game clock.

import { UNITS_PER_MS } from '../time/units.ts';

// Sound name -> duration in ms, from `defsound (name, ms)`.
export type SoundTable = Record<string, number>;

export interface SoundSlot {
  name: string;
  start: number; // units
  end: number; // units; SOUND_FOREVER for a sample looping in place
  volume: number;
  pan: number;
  source: string; // who played it: "script", or the caller's tag for a cricket
}

export interface SoundState {
  slots: [SoundSlot | null, SoundSlot | null];
  voice: SoundSlot | null;
}

export type SlotName = 1 | 2 | 'voice';

export interface PlayResult {
  slot: 1 | 2;
  end: number;
  // What the play displaced from its slot: still sounding (cut off now) or already
  // over but not yet expired. The caller traces its end; null when the slot was empty.
  replaced: SoundSlot | null;
}

export interface SoundEnd {
  slot: SlotName;
  name: string;
  end: number;
}

// A JSON-safe "never ends" for looping samples (Infinity does not survive JSON).
export const SOUND_FOREVER = Number.MAX_SAFE_INTEGER;

export function createSoundState(): SoundState {
  return { slots: [null, null], voice: null };
}

export function hasSound(table: SoundTable, name: string): boolean {
  return Object.hasOwn(table, name);
}

// Duration in whole units; negative or non-finite durations count as 0.
export function soundDuration(table: SoundTable, name: string): number {
  const ms = hasSound(table, name) ? table[name]! : 0;
  return Number.isFinite(ms) && ms > 0 ? Math.round(ms * UNITS_PER_MS) : 0;
}

function sounding(slot: SoundSlot | null, now: number): slot is SoundSlot {
  return slot !== null && slot.start <= now && now < slot.end;
}

function makeSlot(table: SoundTable, name: string, now: number, volume: number, pan: number, source: string, loop: boolean): SoundSlot {
  const end = loop ? SOUND_FOREVER : now + soundDuration(table, name);
  return { name, start: now, end, volume, pan, source };
}

// playsound: slot 1, unless slot 1 is still sounding, then slot 2 (displacing it).
export function playSound(s: SoundState, table: SoundTable, name: string, now: number, volume = 1, pan = 0, source = 'script'): PlayResult {
  const index = sounding(s.slots[0], now) ? 1 : 0;
  return place(s, index, makeSlot(table, name, now, volume, pan, source, false));
}

function place(s: SoundState, index: 0 | 1, slot: SoundSlot): PlayResult {
  const replaced = s.slots[index];
  s.slots[index] = slot;
  return { slot: index === 0 ? 1 : 2, end: slot.end, replaced };
}

// An overlapping play (crickets): always slot 2. `loop` keeps it sounding until stopped.
export function playOverlap(s: SoundState, table: SoundTable, name: string, now: number, volume = 1, pan = 0, source = 'script', loop = false): PlayResult {
  return place(s, 1, makeSlot(table, name, now, volume, pan, source, loop));
}

// The voice channel: a new line replaces the one speaking.
export function playVoice(s: SoundState, table: SoundTable, name: string, now: number, volume = 1, pan = 0, source = 'script'): { end: number; replaced: SoundSlot | null } {
  const replaced = s.voice;
  s.voice = makeSlot(table, name, now, volume, pan, source, false);
  return { end: s.voice.end, replaced };
}

// currentsound (slot): the name sounding in slot 1 or 2 at `now` (start <= now < end).
export function currentSound(s: SoundState, slot: number, now: number): string {
  if (slot !== 1 && slot !== 2) return '';
  const entry = s.slots[slot - 1] ?? null;
  return sounding(entry, now) ? entry.name : '';
}

export function voiceDone(s: SoundState, now: number): boolean {
  return !sounding(s.voice, now);
}

// Clears every channel whose sound has ended by `now`, oldest end first (ties in
// slot 1, slot 2, voice order), so the caller can trace the ends in time order.
export function expireSounds(s: SoundState, now: number): SoundEnd[] {
  const ended: SoundEnd[] = [];
  for (const i of [0, 1] as const) {
    const entry = s.slots[i];
    if (entry && entry.end <= now) {
      ended.push({ slot: i === 0 ? 1 : 2, name: entry.name, end: entry.end });
      s.slots[i] = null;
    }
  }
  if (s.voice && s.voice.end <= now) {
    ended.push({ slot: 'voice', name: s.voice.name, end: s.voice.end });
    s.voice = null;
  }
  return ended.sort((p, q) => p.end - q.end);
}

// Cuts a channel off at `now` (leaving a set silences its crickets). Returns what was
// stopped with its end moved to `now` if it was still sounding, or null if it was empty.
export function stopSound(s: SoundState, slot: SlotName, now: number): SoundEnd | null {
  const entry = slot === 'voice' ? s.voice : s.slots[slot - 1];
  if (!entry) return null;
  if (slot === 'voice') s.voice = null;
  else s.slots[slot - 1] = null;
  return { slot, name: entry.name, end: Math.min(entry.end, now) };
}
