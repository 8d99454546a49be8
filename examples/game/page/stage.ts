// The stage: each set drawn with simple shapes, its actors from world.inspect () (pose,
// facing, and a walk smoothed between heartbeats), and its props and flats as hotspots
// that light up under the pointer. Where a thing stands is in world units: x from
// -210 (left) to 210 (right), z from 0 (the back of the set) to 100 (the front).
import type { ActorView, WorldView } from 'pocketwatch';

/** A prop, flat or actor the player can click: what world.click () is sent. */
export interface Hotspot {
  object: string;
  label: string;
  x: number;
  z: number;
  /** Size in pixels of an 800-wide stage. */
  w: number;
  h: number;
}

type Paint = (g: CanvasRenderingContext2D, s: Stage, lit: (object: string) => boolean) => void;

interface Scenery {
  paint: Paint;
  hotspots: Hotspot[];
}

const HEARTBEAT_MS = 50;

/** Where each actor is drawn: its last two heartbeat positions, blended by game time. */
export class Motion {
  private tracks = new Map<string, { fx: number; fz: number; tx: number; tz: number; at: number }>();

  update(view: WorldView): void {
    for (const a of view.actors) {
      const tr = this.tracks.get(a.name);
      if (!tr || Math.hypot(a.x - tr.tx, a.z - tr.tz) > 60 || view.gameTime < tr.at) {
        // first seen, placed (not walked) somewhere else, or a loaded game: no glide
        this.tracks.set(a.name, { fx: a.x, fz: a.z, tx: a.x, tz: a.z, at: view.gameTime });
      } else if (a.x !== tr.tx || a.z !== tr.tz) {
        const now = this.at(a.name, view.gameTime);
        Object.assign(tr, { fx: now.x, fz: now.z, tx: a.x, tz: a.z, at: view.gameTime });
      }
    }
  }

  at(name: string, gameTime: number): { x: number; z: number } {
    const tr = this.tracks.get(name);
    if (!tr) return { x: 0, z: 0 };
    const k = Math.min(1, Math.max(0, (gameTime - tr.at) / HEARTBEAT_MS));
    return { x: tr.fx + (tr.tx - tr.fx) * k, z: tr.fz + (tr.tz - tr.fz) * k };
  }

  reset(): void {
    this.tracks.clear();
  }
}

export class Stage {
  W = 800;
  H = 450;
  /** The hotspot under the pointer, if any. */
  hover: string | null = null;
  /** Seconds of page time, for things that move by themselves (waves, the beam). */
  time = 0;
  /** Black over the stage, 0..1, from the scripts' fades. */
  black = 0;
  lampLit = false;

  constructor(private readonly canvas: HTMLCanvasElement) {}

  /** Screen x of world x. */
  sx(x: number): number {
    return this.W / 2 + (x * this.W) / 440;
  }

  /** Screen y of the feet of something at world z. */
  sy(z: number): number {
    return this.H * (0.6 + 0.34 * (z / 100));
  }

  /** Size factor at world z: things at the front are bigger. */
  k(z: number): number {
    return (this.W / 800) * (0.75 + 0.45 * (z / 100));
  }

  hotspots(view: WorldView | null): Hotspot[] {
    if (!view) return [];
    const spots = [...(SETS[view.set]?.hotspots ?? [])];
    for (const a of view.actors) if (a.owner === view.set && a.name !== 'you') spots.push({ object: `actor ${a.name}`, label: a.name, x: a.x, z: a.z, w: 40, h: 110 });
    return spots;
  }

  box(h: Hotspot): { x: number; y: number; w: number; h: number } {
    const k = this.k(h.z);
    const w = h.w * k;
    const hh = h.h * k;
    return { x: this.sx(h.x) - w / 2, y: this.sy(h.z) - hh, w, h: hh };
  }

  /** The hotspot at a point of the canvas (CSS pixels), front ones first. */
  hit(view: WorldView | null, px: number, py: number): Hotspot | null {
    const x = (px * this.W) / this.canvas.clientWidth;
    const y = (py * this.H) / this.canvas.clientHeight;
    const spots = this.hotspots(view).sort((a, b) => b.z - a.z);
    return (
      spots.find((h) => {
        const b = this.box(h);
        return x >= b.x && x <= b.x + b.w && y >= b.y && y <= b.y + b.h;
      }) ?? null
    );
  }

  draw(view: WorldView | null, motion: Motion): void {
    const g = this.canvas.getContext('2d');
    if (!g) return;
    const dpr = globalThis.devicePixelRatio || 1;
    const cw = this.canvas.clientWidth || 800;
    const pw = Math.round(cw * dpr);
    const ph = Math.round((this.canvas.clientHeight || 450) * dpr);
    if (this.canvas.width !== pw || this.canvas.height !== ph) {
      this.canvas.width = pw;
      this.canvas.height = ph;
    }
    this.W = 800;
    this.H = 450;
    g.setTransform(pw / this.W, 0, 0, ph / this.H, 0, 0);
    g.fillStyle = '#05070b';
    g.fillRect(0, 0, this.W, this.H);
    if (!view) return;
    const scene = SETS[view.set];
    const lit = (object: string) => this.hover === object;
    scene?.paint(g, this, lit);
    // actors, back to front
    const here = view.actors.filter((a) => a.owner === view.set).map((a) => ({ a, at: motion.at(a.name, view.gameTime) }));
    here.sort((p, q) => p.at.z - q.at.z);
    for (const { a, at } of here) drawActor(g, this, a, at.x, at.z, lit(`actor ${a.name}`));
    // the label of the hotspot under the pointer
    const over = this.hotspots(view).find((h) => h.object === this.hover);
    if (over) {
      const b = this.box(over);
      g.font = '16px Georgia, serif';
      const w = g.measureText(over.label).width + 12;
      const x = Math.min(this.W - w - 4, Math.max(4, b.x + b.w / 2 - w / 2));
      const y = Math.max(4, b.y - 28);
      g.fillStyle = 'rgba(10, 12, 18, 0.85)';
      g.fillRect(x, y, w, 22);
      g.fillStyle = '#f2c14e';
      g.fillText(over.label, x + 6, y + 16);
    }
    if (this.black > 0) {
      g.fillStyle = `rgba(0, 0, 0, ${Math.min(1, this.black)})`;
      g.fillRect(0, 0, this.W, this.H);
    }
  }
}

/** An outline round a hotspot's shape while the pointer is over it. */
function glow(g: CanvasRenderingContext2D, on: boolean): void {
  g.shadowColor = on ? '#f2c14e' : 'transparent';
  g.shadowBlur = on ? 18 : 0;
}

function drawActor(g: CanvasRenderingContext2D, s: Stage, a: ActorView, x: number, z: number, lit: boolean): void {
  const k = s.k(z);
  const fx = s.sx(x);
  const fy = s.sy(z);
  const coat = a.name === 'keeper' ? '#2f4a6b' : '#7a4b2a';
  const skin = '#e8c39e';
  // facing: degrees from +x toward +z; the camera looks toward -z
  const side = Math.cos((a.facing * Math.PI) / 180);
  const away = Math.sin((a.facing * Math.PI) / 180) < -0.7;
  const step = a.pose === 'walk' ? Math.sin((a.poseFrame / 8) * Math.PI * 2) : 0;
  g.save();
  glow(g, lit);
  // shadow
  g.fillStyle = 'rgba(0,0,0,0.35)';
  g.beginPath();
  g.ellipse(fx, fy, 16 * k, 4 * k, 0, 0, Math.PI * 2);
  g.fill();
  // legs
  g.strokeStyle = '#1b1f27';
  g.lineWidth = 6 * k;
  g.lineCap = 'round';
  g.beginPath();
  g.moveTo(fx - 5 * k, fy - 38 * k);
  g.lineTo(fx - 5 * k + step * 8 * k, fy - 2 * k);
  g.moveTo(fx + 5 * k, fy - 38 * k);
  g.lineTo(fx + 5 * k - step * 8 * k, fy - 2 * k);
  g.stroke();
  // body
  g.fillStyle = coat;
  g.beginPath();
  g.roundRect(fx - 14 * k, fy - 82 * k, 28 * k, 48 * k, 6 * k);
  g.fill();
  // arm: raised to the crank when winding
  g.strokeStyle = coat;
  g.lineWidth = 7 * k;
  g.beginPath();
  g.moveTo(fx + side * 8 * k, fy - 74 * k);
  if (a.pose === 'wind') g.lineTo(fx + 24 * k, fy - 92 * k + Math.sin(a.poseFrame) * 6 * k);
  else g.lineTo(fx + side * 10 * k - step * 6 * k, fy - 44 * k);
  g.stroke();
  // head
  g.fillStyle = skin;
  g.beginPath();
  g.arc(fx, fy - 94 * k, 11 * k, 0, Math.PI * 2);
  g.fill();
  g.shadowBlur = 0;
  // cap or hair
  g.fillStyle = a.name === 'keeper' ? '#14202e' : '#3b2414';
  g.beginPath();
  g.arc(fx, fy - 97 * k, 11.5 * k, Math.PI, 0);
  g.fill();
  if (!away) {
    // an eye and a mouth toward the side the actor faces
    g.fillStyle = '#1b1f27';
    g.beginPath();
    g.arc(fx + side * 5 * k, fy - 95 * k, 1.6 * k, 0, Math.PI * 2);
    g.fill();
    const open = a.pose === 'talk' && a.poseFrame % 2 === 1 ? 3 : 1;
    g.fillRect(fx + side * 5 * k - 2 * k, fy - 89 * k, 4 * k, open * k);
  }
  g.restore();
}

// ---- the sets ----

function nightSky(g: CanvasRenderingContext2D, s: Stage, horizon: number): void {
  const sky = g.createLinearGradient(0, 0, 0, horizon);
  sky.addColorStop(0, '#060b1a');
  sky.addColorStop(1, '#1c2a4a');
  g.fillStyle = sky;
  g.fillRect(0, 0, s.W, horizon);
  g.fillStyle = '#cfd8ea';
  // the same stars every frame: a small fixed generator, not Math.random
  let seed = 7;
  const next = () => (seed = (seed * 16807) % 2147483647) / 2147483647;
  for (let i = 0; i < 70; i++) g.fillRect(next() * s.W, next() * (horizon - 12), 1.5, 1.5);
  g.fillStyle = '#eef2d8';
  g.beginPath();
  g.arc(s.W * 0.3, horizon * 0.3, 22, 0, Math.PI * 2);
  g.fill();
}

function sea(g: CanvasRenderingContext2D, s: Stage, top: number, bottom: number): void {
  g.fillStyle = '#0d2238';
  g.fillRect(0, top, s.W, bottom - top);
  g.strokeStyle = 'rgba(170, 200, 230, 0.35)';
  g.lineWidth = 1.5;
  for (let row = 0; row < 5; row++) {
    const y = top + ((row + 0.5) * (bottom - top)) / 5;
    g.beginPath();
    for (let x = 0; x <= s.W; x += 20) g.lineTo(x, y + Math.sin(x / 40 + s.time * 1.3 + row) * 2);
    g.stroke();
  }
}

const SETS: Record<string, Scenery> = {
  shore: {
    hotspots: [
      { object: 'prop door', label: 'the tower door', x: 150, z: 0, w: 44, h: 70 },
      { object: 'prop boat', label: 'a rowing boat', x: -30, z: 60, w: 140, h: 40 },
    ],
    paint(g, s, lit) {
      const horizon = s.sy(0) - 70;
      nightSky(g, s, horizon);
      sea(g, s, horizon, s.sy(0) - 8);
      // sand
      g.fillStyle = '#b59a6a';
      g.fillRect(0, s.sy(0) - 8, s.W, s.H);
      g.fillStyle = '#9c845a';
      g.fillRect(0, s.sy(60), s.W, 3);
      // the jetty on the left
      g.fillStyle = '#4a3522';
      g.fillRect(0, s.sy(30) - 18, s.sx(-150), 10);
      for (let x = 10; x < s.sx(-150); x += 40) g.fillRect(x, s.sy(30) - 10, 6, 26);
      // dune grass
      g.strokeStyle = '#5f7a3a';
      g.lineWidth = 2;
      for (let i = 0; i < 40; i++) {
        const x = s.sx(-205 + i * 2.2);
        const y = s.sy(70 + (i % 5) * 6);
        g.beginPath();
        g.moveTo(x, y);
        g.lineTo(x + Math.sin(s.time + i) * 4, y - 22 - (i % 3) * 6);
        g.stroke();
      }
      // the lighthouse: a tower at the back on the right, its door a hotspot
      const tx = s.sx(150);
      const ty = s.sy(0);
      g.fillStyle = '#d9d4c7';
      g.beginPath();
      g.moveTo(tx - 40, ty);
      g.lineTo(tx - 24, ty - 200);
      g.lineTo(tx + 24, ty - 200);
      g.lineTo(tx + 40, ty);
      g.fill();
      g.fillStyle = '#a8322d';
      for (const y of [50, 115, 180]) g.fillRect(tx - 40 + (y / 200) * 16, ty - y - 16, 80 - (y / 200) * 32, 16);
      g.fillStyle = s.lampLit ? '#ffe9a0' : '#3a3f4a';
      g.fillRect(tx - 20, ty - 232, 40, 32);
      g.fillStyle = '#222';
      g.fillRect(tx - 28, ty - 240, 56, 8);
      g.save();
      glow(g, lit('prop door'));
      g.fillStyle = lit('prop door') ? '#6d4b2b' : '#4e3620';
      const door = s.box(SETS.shore!.hotspots[0]!);
      g.fillRect(door.x + 6, door.y + 12, door.w - 12, door.h - 12);
      g.restore();
      // the boat
      g.save();
      glow(g, lit('prop boat'));
      const b = s.box(SETS.shore!.hotspots[1]!);
      g.fillStyle = lit('prop boat') ? '#8a5a34' : '#6b4427';
      g.beginPath();
      g.moveTo(b.x, b.y + 8);
      g.lineTo(b.x + b.w, b.y + 8);
      g.lineTo(b.x + b.w - 18, b.y + b.h);
      g.lineTo(b.x + 18, b.y + b.h);
      g.fill();
      g.restore();
    },
  },
  lamproom: {
    hotspots: [
      { object: 'prop lamp', label: 'the great lamp', x: 0, z: 20, w: 120, h: 190 },
      { object: 'prop crank', label: 'the clockwork crank', x: 150, z: 45, w: 70, h: 110 },
      { object: 'prop logbook', label: 'the logbook', x: -140, z: 55, w: 90, h: 70 },
      { object: 'flat stairs', label: 'the stairs down', x: -185, z: 95, w: 70, h: 50 },
    ],
    paint(g, s, lit) {
      // walls of glass panes onto the night, a brass floor
      g.fillStyle = '#0b1222';
      g.fillRect(0, 0, s.W, s.sy(0));
      g.strokeStyle = '#47505f';
      g.lineWidth = 6;
      for (let x = 0; x <= s.W; x += 133) {
        g.beginPath();
        g.moveTo(x, 0);
        g.lineTo(x, s.sy(0));
        g.stroke();
      }
      g.fillStyle = '#5a4a32';
      g.fillRect(0, s.sy(0), s.W, s.H);
      g.strokeStyle = '#6e5b3e';
      g.lineWidth = 1;
      for (let z = 0; z <= 100; z += 20) {
        g.beginPath();
        g.moveTo(0, s.sy(z));
        g.lineTo(s.W, s.sy(z));
        g.stroke();
      }
      const [lamp, crank, book, stairs] = SETS.lamproom!.hotspots as [Hotspot, Hotspot, Hotspot, Hotspot];
      // the lamp: a lens on a pedestal, bright once lit
      g.save();
      glow(g, lit(lamp.object) || s.lampLit);
      const l = s.box(lamp);
      g.fillStyle = '#8a7b55';
      g.fillRect(l.x + l.w * 0.3, l.y + l.h * 0.55, l.w * 0.4, l.h * 0.45);
      g.fillStyle = s.lampLit ? '#fff1b8' : lit(lamp.object) ? '#9fb7cf' : '#6f8aa5';
      g.beginPath();
      g.ellipse(l.x + l.w / 2, l.y + l.h * 0.3, l.w / 2, l.h * 0.3, 0, 0, Math.PI * 2);
      g.fill();
      g.restore();
      // the crank on its clockwork box
      g.save();
      glow(g, lit(crank.object));
      const c = s.box(crank);
      g.fillStyle = lit(crank.object) ? '#7d6a45' : '#5f5035';
      g.fillRect(c.x, c.y + c.h * 0.35, c.w, c.h * 0.65);
      g.strokeStyle = '#c9a44a';
      g.lineWidth = 5;
      g.beginPath();
      g.moveTo(c.x + c.w / 2, c.y + c.h * 0.45);
      const turn = s.time * 3;
      g.lineTo(c.x + c.w / 2 + Math.cos(turn) * 22, c.y + c.h * 0.45 + Math.sin(turn) * 22);
      g.stroke();
      g.restore();
      // the logbook on its desk
      g.save();
      glow(g, lit(book.object));
      const b = s.box(book);
      g.fillStyle = '#3b2c1c';
      g.fillRect(b.x, b.y + b.h * 0.4, b.w, b.h * 0.6);
      g.fillStyle = lit(book.object) ? '#e8dcc0' : '#cbbd9d';
      g.fillRect(b.x + 10, b.y + b.h * 0.18, b.w - 20, b.h * 0.24);
      g.restore();
      // the stairs down, at the front left
      g.save();
      glow(g, lit(stairs.object));
      const st = s.box(stairs);
      g.fillStyle = lit(stairs.object) ? '#2b2b33' : '#1b1b22';
      g.fillRect(st.x, st.y, st.w, st.h);
      g.fillStyle = '#444b57';
      for (let i = 0; i < 4; i++) g.fillRect(st.x + 4, st.y + 6 + i * 11, st.w - 8 - i * 8, 4);
      g.restore();
    },
  },
  gallery: {
    hotspots: [],
    paint(g, s) {
      const horizon = s.sy(0) - 40;
      nightSky(g, s, horizon);
      sea(g, s, horizon, s.H);
      // the beam, sweeping
      const a = s.time * 0.9;
      g.fillStyle = 'rgba(255, 240, 170, 0.18)';
      g.beginPath();
      g.moveTo(s.W / 2, horizon - 60);
      g.lineTo(s.W / 2 + Math.cos(a) * s.W, horizon - 60 + Math.sin(a) * 40 - 30);
      g.lineTo(s.W / 2 + Math.cos(a + 0.12) * s.W, horizon - 60 + Math.sin(a + 0.12) * 40 + 30);
      g.fill();
      // the Marigold, far out, going round the point
      const x = ((s.time * 12) % (s.W + 200)) - 100;
      g.fillStyle = '#0a0d14';
      g.fillRect(x, horizon + 6, 70, 10);
      g.fillRect(x + 24, horizon - 8, 16, 14);
      g.fillStyle = '#ffd77a';
      g.fillRect(x + 28, horizon - 4, 3, 3);
      // the gallery rail in front
      g.strokeStyle = '#2c3038';
      g.lineWidth = 5;
      g.beginPath();
      g.moveTo(0, s.sy(90) - 40);
      g.lineTo(s.W, s.sy(90) - 40);
      g.stroke();
      for (let x2 = 20; x2 < s.W; x2 += 60) {
        g.beginPath();
        g.moveTo(x2, s.sy(90) - 40);
        g.lineTo(x2, s.H);
        g.stroke();
      }
    },
  },
};
