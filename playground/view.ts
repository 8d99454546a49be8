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

export function drawWorld(canvas: HTMLCanvasElement, v: WorldView | null): void {
  const g = canvas.getContext('2d');
  if (!g) return;
  const W = canvas.width;
  const H = canvas.height;
  g.clearRect(0, 0, W, H);
  g.font = '11px ui-monospace, monospace';
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
    g.fillStyle = COLOURS.cricket;
    g.fillText(`${c.name} ${c.sounding ? '♪' : ''} vol ${c.volume}`, px(c.x) + 4, pz(c.z) - 4);
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
    g.fillStyle = COLOURS.star;
    g.fillText(s.name, x + 5, y + 12);
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
    g.fillStyle = COLOURS.text;
    g.fillText(`${a.name} (${a.pose}${a.walk ? `, ${a.walk.turning ? 'turning' : 'walking'} to ${a.walk.dest}` : ''})`, x + 9, y - 8);
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
  g.fillStyle = COLOURS.text;
  g.fillText(`set ${v.set || '(none)'}   view ${v.view}${v.camera.turningTo ? ` → ${v.camera.turningTo}` : ''}`, 12, 18);
}
