// The world seen from above, on a canvas: stars, actors with their facing and walks,
// crickets with their audible radius and current volume, the camera and its view.
import type { WorldView } from '../src/api/index.ts';

const COLOURS = { star: '#5c6370', actor: '#e0b15a', walk: '#8a6d35', cricket: '#4fb3a6', camera: '#c792ea', text: '#d8dde6', dim: '#8a93a3' };

function bounds(v: WorldView): { minX: number; maxX: number; minZ: number; maxZ: number } {
  const xs = [v.camera.x];
  const zs = [v.camera.z];
  for (const s of v.stars) xs.push(s.x), zs.push(s.z);
  for (const a of v.actors) xs.push(a.x), zs.push(a.z);
  for (const c of v.crickets) if (c.active) xs.push(c.x - c.radius, c.x + c.radius), zs.push(c.z - c.radius, c.z + c.radius);
  const pad = (lo: number, hi: number): [number, number] => (hi - lo < 20 ? [lo - 10, hi + 10] : [lo - (hi - lo) * 0.08, hi + (hi - lo) * 0.08]);
  const [minX, maxX] = pad(Math.min(...xs), Math.max(...xs));
  const [minZ, maxZ] = pad(Math.min(...zs), Math.max(...zs));
  return { minX, maxX, minZ, maxZ };
}

function arrow(g: CanvasRenderingContext2D, x: number, y: number, deg: number, len: number): void {
  const r = (deg * Math.PI) / 180;
  g.beginPath();
  g.moveTo(x, y);
  // +x to the right, +z down the canvas: a bearing from +x toward +z turns clockwise here
  g.lineTo(x + Math.cos(r) * len, y + Math.sin(r) * len);
  g.stroke();
}

type Box = { x: number; y: number; w: number; h: number };
const LINE = 13;

/** Text labels that never cover one another: each takes the nearest free row to where it asks to go. */
class Labels {
  private placed: Box[] = [];
  constructor(
    private readonly g: CanvasRenderingContext2D,
    private readonly W: number,
    private readonly H: number,
  ) {}

  put(text: string, x: number, y: number, colour: string): void {
    const w = this.g.measureText(text).width;
    const lx = Math.min(Math.max(2, x), Math.max(2, this.W - w - 2));
    for (let i = 0; i < 16; i++) {
      // y, then one row below, one above, two below…
      const dy = (i % 2 === 1 ? 1 : -1) * Math.ceil(i / 2) * LINE;
      const box = { x: lx - 1, y: y + dy - LINE + 3, w: w + 2, h: LINE };
      if (box.y < 0 || box.y + box.h > this.H) continue;
      if (this.placed.some((o) => box.x < o.x + o.w && o.x < box.x + box.w && box.y < o.y + o.h && o.y < box.y + box.h)) continue;
      this.placed.push(box);
      this.g.fillStyle = colour;
      this.g.fillText(text, lx, y + dy);
      return;
    }
    // no free row near it: left out rather than drawn over another
  }
}

/** Makes the canvas's pixels match its size on the page; returns that size in CSS pixels. */
function fit(canvas: HTMLCanvasElement, g: CanvasRenderingContext2D): { W: number; H: number } {
  const dpr = globalThis.devicePixelRatio || 1;
  const W = canvas.clientWidth || canvas.width;
  const H = canvas.clientHeight || canvas.height;
  const pw = Math.round(W * dpr);
  const ph = Math.round(H * dpr);
  if (canvas.width !== pw || canvas.height !== ph) {
    canvas.width = pw;
    canvas.height = ph;
  }
  g.setTransform(pw / W, 0, 0, ph / H, 0, 0);
  return { W, H };
}

export function drawWorld(canvas: HTMLCanvasElement, v: WorldView | null): void {
  const g = canvas.getContext('2d');
  if (!g) return;
  const { W, H } = fit(canvas, g);
  g.clearRect(0, 0, W, H);
  g.font = '11px ui-monospace, monospace';
  const labels = new Labels(g, W, H);
  if (!v) {
    g.fillStyle = COLOURS.dim;
    g.fillText('press Run to start the world', 16, 24);
    return;
  }
  const b = bounds(v);
  const scale = Math.min((W - 40) / (b.maxX - b.minX), (H - 50) / (b.maxZ - b.minZ));
  const px = (x: number) => 20 + (x - b.minX) * scale;
  const pz = (z: number) => 36 + (z - b.minZ) * scale;

  for (const c of v.crickets) {
    if (!c.active) continue;
    g.strokeStyle = COLOURS.cricket;
    g.fillStyle = `rgba(79, 179, 166, ${0.08 + 0.35 * c.volume})`;
    g.beginPath();
    g.arc(px(c.x), pz(c.z), Math.max(2, c.radius * scale), 0, Math.PI * 2);
    g.fill();
    g.stroke();
  }
  for (const s of v.stars) {
    g.strokeStyle = COLOURS.star;
    const x = px(s.x);
    const y = pz(s.z);
    g.beginPath();
    g.moveTo(x - 4, y);
    g.lineTo(x + 4, y);
    g.moveTo(x, y - 4);
    g.lineTo(x, y + 4);
    g.stroke();
  }
  for (const a of v.actors) {
    const x = px(a.x);
    const y = pz(a.z);
    if (a.walk) {
      g.strokeStyle = COLOURS.walk;
      g.setLineDash([4, 4]);
      g.beginPath();
      g.moveTo(x, y);
      for (const leg of a.walk.legs.slice(a.walk.leg)) g.lineTo(px(leg.x), pz(leg.z));
      g.stroke();
      g.setLineDash([]);
    }
    g.fillStyle = COLOURS.actor;
    g.beginPath();
    g.arc(x, y, 6, 0, Math.PI * 2);
    g.fill();
    g.strokeStyle = COLOURS.actor;
    g.lineWidth = 2;
    arrow(g, x, y, a.facing, 16);
    g.lineWidth = 1;
  }
  // the camera: where sounds are heard from, facing its view
  g.strokeStyle = COLOURS.camera;
  g.fillStyle = COLOURS.camera;
  const cx = px(v.camera.x);
  const cy = pz(v.camera.z);
  g.beginPath();
  g.arc(cx, cy, 4, 0, Math.PI * 2);
  g.fill();
  g.lineWidth = 2;
  arrow(g, cx, cy, v.camera.facing, 22);
  g.lineWidth = 1;
  // labels last, most important first: the set, actors, crickets, then stars
  labels.put(`set ${v.set || '(none)'}   view ${v.view}${v.camera.turningTo ? ` → ${v.camera.turningTo}` : ''}`, 12, 18, COLOURS.text);
  for (const a of v.actors) {
    labels.put(`${a.name} (${a.pose}${a.walk ? `, ${a.walk.turning ? 'turning' : 'walking'} to ${a.walk.dest}` : ''})`, px(a.x) + 9, pz(a.z) - 8, COLOURS.text);
  }
  for (const c of v.crickets) if (c.active) labels.put(`${c.name} ${c.sounding ? '♪' : ''} vol ${c.volume}`, px(c.x) + 4, pz(c.z) - 4, COLOURS.cricket);
  for (const s of v.stars) labels.put(s.name, px(s.x) + 5, pz(s.z) + 12, COLOURS.star);
}
