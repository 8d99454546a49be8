import { describe, expect, it } from 'vitest';
import {
  createSoundState,
  currentSound,
  expireSounds,
  hasSound,
  playOverlap,
  playSound,
  playVoice,
  soundDuration,
  stopSound,
  voiceDone,
  SOUND_FOREVER,
  type SoundTable,
} from '../../src/world/sound.ts';

const table: SoundTable = { hiss: 1000, clank: 200, blip: 0, line1: 500 };
const ms = (n: number): number => n * 3;

describe('sound slots', () => {
  it('knows its sounds and their durations in units', () => {
    expect(hasSound(table, 'hiss')).toBe(true);
    expect(hasSound(table, 'nope')).toBe(false);
    expect(hasSound(table, 'constructor')).toBe(false);
    expect(soundDuration(table, 'hiss')).toBe(3000);
  });

  it('currentsound is the sound from its start up to, not including, its end', () => {
    const s = createSoundState();
    expect(playSound(s, table, 'hiss', ms(100))).toEqual({ slot: 1, end: ms(1100), replaced: null });
    expect(currentSound(s, 1, ms(100) - 1)).toBe('');
    expect(currentSound(s, 1, ms(100))).toBe('hiss');
    expect(currentSound(s, 1, ms(1100) - 1)).toBe('hiss');
    expect(currentSound(s, 1, ms(1100))).toBe('');
    expect(currentSound(s, 2, ms(500))).toBe('');
    expect(currentSound(s, 3, ms(500))).toBe('');
  });

  it('a play while slot 1 sounds lands in slot 2, replacing it', () => {
    const s = createSoundState();
    playSound(s, table, 'hiss', 0);
    const second = playSound(s, table, 'clank', ms(100));
    expect(second).toEqual({ slot: 2, end: ms(300), replaced: null });
    const third = playSound(s, table, 'blip', ms(200));
    expect(third.slot).toBe(2);
    expect(third.replaced?.name).toBe('clank');
    expect(currentSound(s, 1, ms(200))).toBe('hiss');
    // Once slot 1 has ended, a play goes back there and hands over the ended entry.
    const fourth = playSound(s, table, 'clank', ms(1000));
    expect(fourth.slot).toBe(1);
    expect(fourth.replaced).toMatchObject({ name: 'hiss', end: ms(1000) });
  });

  it('an overlapping play always takes slot 2', () => {
    const s = createSoundState();
    expect(playOverlap(s, table, 'hiss', 0, 0.5, -0.25, 'cricket:c').slot).toBe(2);
    expect(currentSound(s, 1, 0)).toBe('');
    expect(currentSound(s, 2, 0)).toBe('hiss');
    expect(s.slots[1]).toMatchObject({ volume: 0.5, pan: -0.25, source: 'cricket:c' });
    expect([s.slots[0]?.source, s.voice?.source]).toEqual([undefined, undefined]);
    const looped = playOverlap(s, table, 'clank', 10, 1, 0, 'cricket:d', true);
    expect(looped.end).toBe(SOUND_FOREVER);
    expect(currentSound(s, 2, ms(3_600_000))).toBe('clank');
  });

  it('a zero-length sound never sounds and ends at once', () => {
    const s = createSoundState();
    const r = playSound(s, table, 'blip', 300);
    expect(r.end).toBe(300);
    expect(currentSound(s, 1, 300)).toBe('');
    expect(expireSounds(s, 300)).toEqual([{ slot: 1, name: 'blip', end: 300 }]);
  });

  it('voice: voicedone is false while the line plays', () => {
    const s = createSoundState();
    expect(voiceDone(s, 0)).toBe(true);
    playVoice(s, table, 'line1', ms(50));
    expect(voiceDone(s, ms(50))).toBe(false);
    expect(voiceDone(s, ms(549))).toBe(false);
    expect(voiceDone(s, ms(550))).toBe(true);
    expect(currentSound(s, 1, ms(100))).toBe('');
  });

  it('expires ended sounds oldest first and keeps the rest', () => {
    const s = createSoundState();
    playSound(s, table, 'hiss', 0); // ends 3000
    playSound(s, table, 'clank', 0); // slot 2, ends 600
    playVoice(s, table, 'line1', 0); // ends 1500
    expect(expireSounds(s, 599)).toEqual([]);
    expect(expireSounds(s, 3000)).toEqual([
      { slot: 2, name: 'clank', end: 600 },
      { slot: 'voice', name: 'line1', end: 1500 },
      { slot: 1, name: 'hiss', end: 3000 },
    ]);
    expect(s).toEqual(createSoundState());
  });

  it('stopSound cuts a channel off at now', () => {
    const s = createSoundState();
    playSound(s, table, 'hiss', 0);
    expect(stopSound(s, 1, 900)).toEqual({ slot: 1, name: 'hiss', end: 900 });
    expect(stopSound(s, 1, 900)).toBeNull();
    expect(currentSound(s, 1, 900)).toBe('');
  });

  it('survives JSON', () => {
    const s = createSoundState();
    playSound(s, table, 'hiss', 0);
    playOverlap(s, table, 'clank', 0, 1, 0, 'x', true);
    expect(JSON.parse(JSON.stringify(s))).toEqual(s);
  });
});
