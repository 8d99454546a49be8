// Sounds with Web Audio: a short synthesized tone per sound name (the same name always
// gives the same pitch), at the volume and pan the world gives it, through one
// master volume.
import type { SoundEvent } from '../src/api/index.ts';

const LONGEST_TONE_S = 0.6;

export class Speakers {
  private context: AudioContext | null = null;
  private master: GainNode | null = null;
  volume = 0.5;

  /** Browsers allow audio after a user gesture: call this from a click. */
  wake(): void {
    if (!this.context) {
      this.context = new AudioContext();
      this.master = this.context.createGain();
      this.master.connect(this.context.destination);
    }
    this.master!.gain.value = this.volume;
    void this.context.resume().catch(() => {});
  }

  setVolume(v: number): void {
    this.volume = v;
    if (this.master) this.master.gain.value = v;
  }

  play(e: SoundEvent): void {
    const ctx = this.context;
    if (!ctx || !this.master || e.action !== 'start' || !(e.volume! > 0) || ctx.state !== 'running') return;
    const seconds = e.ms === 'loop' ? LONGEST_TONE_S : Math.min(LONGEST_TONE_S, Math.max(0.05, (e.ms ?? 100) / 1000));
    const osc = ctx.createOscillator();
    osc.type = e.slot === 'voice' ? 'sawtooth' : 'triangle';
    osc.frequency.value = pitchOf(e.sound);
    const gain = ctx.createGain();
    const t = ctx.currentTime;
    gain.gain.setValueAtTime(0, t);
    gain.gain.linearRampToValueAtTime(0.3 * e.volume!, t + 0.01);
    gain.gain.exponentialRampToValueAtTime(0.0001, t + seconds);
    const pan = ctx.createStereoPanner();
    pan.pan.value = Math.max(-1, Math.min(1, e.pan ?? 0));
    osc.connect(gain).connect(pan).connect(this.master);
    osc.start(t);
    osc.stop(t + seconds + 0.02);
  }
}

/** Two octaves of semitones above 220 Hz, chosen by the name. */
export function pitchOf(name: string): number {
  let h = 0;
  for (let i = 0; i < name.length; i++) h = (h * 31 + name.charCodeAt(i)) >>> 0;
  return 220 * 2 ** ((h % 24) / 12);
}
