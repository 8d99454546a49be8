// The game's sound: every sound event the world reports is synthesised with Web Audio
// (no samples to download), at the volume and pan the world gives it. A looping sound
// (a soundloop cricket) plays until its end event. Browsers allow audio only after a
// user gesture, so nothing is made before wake () is called from one.
import type { SoundEvent } from 'pocketwatch';

type Voice = { stop(at: number): void };

export class Speakers {
  private ctx: AudioContext | null = null;
  private master: GainNode | null = null;
  private noise: AudioBuffer | null = null;
  /** What sounds in each channel (slot 1, slot 2, voice): a new start there replaces it. */
  private playing = new Map<string, Voice>();

  get awake(): boolean {
    return this.ctx !== null && this.ctx.state === 'running';
  }

  /** Call from a click or key press: makes (or resumes) the audio context. */
  wake(): void {
    if (!this.ctx) {
      this.ctx = new AudioContext();
      this.master = this.ctx.createGain();
      this.master.gain.value = 0.6;
      this.master.connect(this.ctx.destination);
      const n = this.ctx.createBuffer(1, this.ctx.sampleRate * 2, this.ctx.sampleRate);
      const d = n.getChannelData(0);
      // a fixed pseudo-random hiss: the page needs no Math.random either
      let x = 12345;
      for (let i = 0; i < d.length; i++) d[i] = ((x = (x * 1103515245 + 12345) >>> 0) / 2 ** 32) * 2 - 1;
      this.noise = n;
    }
    void this.ctx.resume().catch(() => {});
  }

  /** Silence everything (a loaded game starts its sounds afresh). */
  hush(): void {
    const t = this.ctx?.currentTime ?? 0;
    for (const v of this.playing.values()) v.stop(t);
    this.playing.clear();
  }

  play(e: SoundEvent): void {
    const ctx = this.ctx;
    const key = String(e.slot);
    if (!ctx || !this.master || ctx.state !== 'running') return;
    const t = ctx.currentTime;
    this.playing.get(key)?.stop(t);
    this.playing.delete(key);
    if (e.action !== 'start' || !(e.volume! > 0)) return;
    const seconds = e.ms === 'loop' ? Infinity : Math.max(0.05, (e.ms ?? 300) / 1000);
    const out = ctx.createGain();
    out.gain.value = e.volume!;
    const pan = ctx.createStereoPanner();
    pan.pan.value = Math.max(-1, Math.min(1, e.pan ?? 0));
    out.connect(pan).connect(this.master);
    const v = synth(ctx, this.noise!, e.sound, out, t, seconds);
    this.playing.set(key, v);
  }
}

/** Starts sound `name` into `out` at time t; it ends by itself after `seconds` (Infinity: until stopped). */
function synth(ctx: AudioContext, noise: AudioBuffer, name: string, out: AudioNode, t: number, seconds: number): Voice {
  const nodes: AudioScheduledSourceNode[] = [];
  const env = ctx.createGain();
  env.connect(out);
  const osc = (type: OscillatorType, hz: number): OscillatorNode => {
    const o = ctx.createOscillator();
    o.type = type;
    o.frequency.value = hz;
    nodes.push(o);
    return o;
  };
  const hiss = (): AudioBufferSourceNode => {
    const s = ctx.createBufferSource();
    s.buffer = noise;
    s.loop = true;
    nodes.push(s);
    return s;
  };
  const filter = (type: BiquadFilterType, hz: number, q = 1): BiquadFilterNode => {
    const f = ctx.createBiquadFilter();
    f.type = type;
    f.frequency.value = hz;
    f.Q.value = q;
    return f;
  };
  /** A slow swell of the envelope (waves, gusts). */
  const swell = (hz: number, depth: number): void => {
    const lfo = osc('sine', hz);
    const g = ctx.createGain();
    g.gain.value = depth;
    lfo.connect(g).connect(env.gain);
  };
  const end = Number.isFinite(seconds) ? t + seconds : Infinity;
  const fadeOut = (level: number) => {
    env.gain.setValueAtTime(0, t);
    env.gain.linearRampToValueAtTime(level, t + 0.05);
    if (end !== Infinity) env.gain.setTargetAtTime(0, Math.max(t + 0.05, end - 0.15), 0.05);
  };
  switch (name) {
    case 'surf':
      hiss().connect(filter('lowpass', 500)).connect(env);
      fadeOut(0.35);
      swell(0.2, 0.25);
      break;
    case 'wind':
      hiss()
        .connect(filter('bandpass', 380, 0.8))
        .connect(env);
      fadeOut(0.4);
      swell(0.13, 0.3);
      break;
    case 'chirp': {
      osc('sine', 4300).connect(env);
      env.gain.setValueAtTime(0, t);
      for (let i = 0; i < 3; i++) {
        env.gain.setValueAtTime(0.12, t + i * 0.08);
        env.gain.setValueAtTime(0, t + i * 0.08 + 0.04);
      }
      break;
    }
    case 'gull': {
      const o = osc('triangle', 1300);
      o.frequency.setValueAtTime(1300, t);
      o.frequency.exponentialRampToValueAtTime(700, t + 0.3);
      o.frequency.setValueAtTime(1250, t + 0.35);
      o.frequency.exponentialRampToValueAtTime(650, t + 0.65);
      o.connect(env);
      fadeOut(0.15);
      break;
    }
    case 'clockwork':
      // a square wave at 4 Hz through a high-pass filter: a tick at every edge
      osc('square', 4).connect(filter('highpass', 2500)).connect(env);
      fadeOut(0.6);
      break;
    case 'creak': {
      const o = osc('sawtooth', 90);
      o.frequency.linearRampToValueAtTime(150, t + Math.min(seconds, 0.4));
      o.connect(filter('lowpass', 900)).connect(env);
      fadeOut(0.25);
      break;
    }
    case 'spark':
      hiss().connect(filter('highpass', 3000)).connect(env);
      env.gain.setValueAtTime(0.5, t);
      env.gain.exponentialRampToValueAtTime(0.001, t + Math.min(seconds, 0.4));
      break;
    case 'horn': {
      const lp = filter('lowpass', 450);
      osc('sawtooth', 98).connect(lp);
      osc('sawtooth', 147).connect(lp);
      lp.connect(env);
      fadeOut(0.3);
      break;
    }
    case 'logbook': {
      // a voice reading: a buzz that rises and falls in syllables
      const o = osc('square', 160);
      const vib = osc('sine', 5);
      const depth = ctx.createGain();
      depth.gain.value = 12;
      vib.connect(depth).connect(o.frequency);
      o.connect(filter('lowpass', 1100)).connect(env);
      fadeOut(0.12);
      swell(4.5, 0.1);
      break;
    }
    default: {
      let h = 0;
      for (let i = 0; i < name.length; i++) h = (h * 31 + name.charCodeAt(i)) >>> 0;
      osc('triangle', 220 * 2 ** ((h % 24) / 12)).connect(env);
      fadeOut(0.2);
    }
  }
  for (const n of nodes) {
    n.start(t);
    if (end !== Infinity) n.stop(end + 0.05);
  }
  return {
    stop(at: number) {
      env.gain.cancelScheduledValues(at);
      env.gain.setTargetAtTime(0, at, 0.03);
      for (const n of nodes) n.stop(at + 0.2);
    },
  };
}
