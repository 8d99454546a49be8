// A timeline as a picture: an SVG that needs no script and no network. Tracks are rows
// under their group's heading, on one game-time axis with ticks in seconds; spans are
// bars (a child inside its parent), marks are small shapes, and everything carries a
// <title>, the text a viewer shows on hover. Colour says what a thing is (the legend).
import { GROUPS, GROUP_TITLES, type Args, type Kind, type Mark, type Span, type Timeline, type Track } from './model.ts';

const WIDTH = 1200;
const LABEL_X = 12;
const PLOT_X = 250;
const PLOT_RIGHT = WIDTH - 24;
const ROW = 18;
const HEADING = 22;
const FONT = 'font-family="Helvetica, Arial, sans-serif"';
/** Average glyph width as a share of the font size, for fitting labels. */
const GLYPH = 0.56;

interface Style {
  fill: string;
  /** Text colour on the fill. */
  ink: string;
  legend: string;
}

export const STYLES: Record<Kind, Style> = {
  set: { fill: '#dbe5f4', ink: '#1d3557', legend: 'current set' },
  print: { fill: '#222222', ink: '#ffffff', legend: 'print (hover to read)' },
  warning: { fill: '#e69500', ink: '#000000', legend: 'warning' },
  error: { fill: '#d62728', ink: '#ffffff', legend: 'script error' },
  dropped: { fill: '#d62728', ink: '#ffffff', legend: 'dropped catch-up time' },
  input: { fill: '#17a2b8', ink: '#ffffff', legend: 'click, mouse' },
  clock: { fill: '#d9d98a', ink: '#333300', legend: 'clock locked or saved' },
  camera: { fill: '#b9a3d6', ink: '#2d1b4e', legend: 'camera turn' },
  screen: { fill: '#6c6c6c', ink: '#ffffff', legend: 'screen fade' },
  frame: { fill: '#8a8a8a', ink: '#ffffff', legend: 'game frame someone waited on' },
  armed: { fill: '#a6cbe8', ink: '#0b3c66', legend: 'loop armed, counting down' },
  fired: { fill: '#08519c', ink: '#ffffff', legend: 'loop fires' },
  thread: { fill: '#ececec', ink: '#444444', legend: 'thread alive' },
  run: { fill: '#111111', ink: '#ffffff', legend: 'thread runs' },
  'wait-time': { fill: '#f9c58d', ink: '#5a3000', legend: 'waits on game time (delay, fades)' },
  'wait-frame': { fill: '#9fd89a', ink: '#0b4010', legend: 'waits on frames (forceupdate, polls)' },
  walk: { fill: '#e3f1de', ink: '#1e4d1e', legend: 'walk' },
  turning: { fill: '#8fd18a', ink: '#0b3d0b', legend: 'turning' },
  moving: { fill: '#2e8b47', ink: '#ffffff', legend: 'moving' },
  arrival: { fill: '#0a4a1e', ink: '#ffffff', legend: 'reaches a star, arrives' },
  sound: { fill: '#c9c3e6', ink: '#2b2163', legend: 'sound playing' },
  cricket: { fill: '#a05eb5', ink: '#ffffff', legend: 'cricket shot' },
};

export function escapeXml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

/** Numbers in the picture: short and always the same for the same input. */
function n(x: number): string {
  return String(Math.round(x * 10) / 10);
}

function seconds(ms: number): string {
  return `${Math.round(ms) / 1000} s`;
}

function fit(text: string, px: number, size: number): string | null {
  const max = Math.floor(px / (size * GLYPH));
  if (max >= text.length) return text;
  if (max < 4) return null;
  return `${text.slice(0, max - 1)}…`;
}

function argsText(args: Args): string {
  const parts: string[] = [];
  for (const [k, v] of Object.entries(args)) {
    if (k === 'startedBefore') parts.push('began before this window');
    else if (k === 'continues') parts.push('goes on after this window');
    else parts.push(`${k} ${typeof v === 'string' ? v : JSON.stringify(v)}`);
  }
  return parts.join('\n');
}

function markArgs(args: Args): string {
  const parts = Object.entries(args)
    .filter(([, v]) => v !== undefined && v !== '')
    .map(([k, v]) => `${k} ${typeof v === 'string' ? v : JSON.stringify(v)}`);
  return parts.length > 0 ? ` (${parts.join(', ')})` : '';
}

function spanTitle(s: Span): string {
  const len = s.end - s.start;
  const when = len > 0 ? `${seconds(s.start)} → ${seconds(s.end)} (${Math.round(len * 1000) / 1000} ms)` : `at ${seconds(s.start)}`;
  const extra = argsText(s.args);
  return `${s.name}\n${when}${extra ? `\n${extra}` : ''}`;
}

/** Axis step in ms: a round number giving ticks at least ~70 px apart. */
function tickStep(spanMs: number, px: number): number {
  const steps = [50, 100, 200, 250, 500, 1000, 2000, 5000, 10_000, 15_000, 30_000, 60_000, 120_000, 300_000, 600_000, 900_000, 1_800_000, 3_600_000];
  for (const s of steps) if ((s / spanMs) * px >= 70) return s;
  // longer spans (a trace may say any game time): whole hours, doubled until ticks are apart
  let s = steps[steps.length - 1]!;
  while ((s / spanMs) * px < 70) s *= 2;
  return s;
}

export function timelineSvg(tl: Timeline, title = 'Pocketwatch timeline'): string {
  const span = Math.max(tl.to - tl.from, 1);
  const X = (t: number): number => PLOT_X + ((t - tl.from) / span) * (PLOT_RIGHT - PLOT_X);
  const out: string[] = [];

  // legend: the kinds that appear, in a fixed order
  const used = new Set<Kind>();
  for (const tr of tl.tracks) {
    for (const s of tr.spans) used.add(s.kind);
    for (const m of tr.marks) used.add(m.kind);
  }
  const legend: string[] = [];
  let lx = LABEL_X;
  let ly = 62;
  for (const kind of Object.keys(STYLES) as Kind[]) {
    if (!used.has(kind)) continue;
    const label = STYLES[kind].legend;
    const w = 16 + label.length * 11 * GLYPH + 18;
    if (lx + w > WIDTH - 12) {
      lx = LABEL_X;
      ly += 18;
    }
    legend.push(`<g>${swatch(kind, lx + 6, ly - 4)}<text x="${n(lx + 16)}" y="${n(ly)}">${escapeXml(label)}</text></g>`);
    lx += w;
  }
  const axisY = ly + 34;

  // rows
  const rows: string[] = [];
  let y = axisY + 8;
  for (const g of GROUPS) {
    const tracks = tl.tracks.filter((tr) => tr.group === g);
    if (tracks.length === 0) continue;
    rows.push(`<rect x="0" y="${n(y)}" width="${WIDTH}" height="${HEADING}" fill="#f4f4f4"/>`);
    rows.push(`<text x="${LABEL_X}" y="${n(y + 15)}" font-weight="bold" font-size="12">${escapeXml(GROUP_TITLES[g])}</text>`);
    y += HEADING;
    for (const tr of tracks) {
      rows.push(trackRow(tr, y, X));
      y += ROW;
    }
  }
  const bottom = y + 4;

  // the axis: a tick a round number of seconds of game time apart, a faint line through
  // every row; a savetimer window (game time held, wall time going on) has no ticks of its own
  const step = tickStep(span, PLOT_RIGHT - PLOT_X);
  const grid: string[] = [];
  for (const [a, b, gained] of gameSegments(tl)) {
    for (let g = Math.ceil((a - gained) / step) * step; g + gained <= b; g += step) {
      const x = n(X(g + gained));
      grid.push(`<line x1="${x}" y1="${n(axisY)}" x2="${x}" y2="${n(bottom)}" stroke="#e2e2e2"/>`);
      grid.push(`<line x1="${x}" y1="${n(axisY - 5)}" x2="${x}" y2="${n(axisY)}" stroke="#555"/>`);
      grid.push(`<text x="${x}" y="${n(axisY - 8)}" text-anchor="middle">${seconds(g)}</text>`);
    }
  }
  for (const w of tl.inserted) {
    const x1 = X(Math.max(w.start, tl.from));
    const x2 = X(Math.min(w.end, tl.to));
    const about = `savetimer window: ${seconds(w.end - w.start)} of wall time, the game clock held at ${seconds(w.at)}; what runs on the wall clock (fades, sounds, voice lines, walldelay) is placed by its wall time`;
    grid.push(
      `<g><title>${escapeXml(about)}</title><rect x="${n(x1)}" y="${n(axisY - 18)}" width="${n(Math.max(x2 - x1, 1))}" height="${n(bottom - axisY + 18)}" fill="${STYLES.clock.fill}" fill-opacity="0.25" data-save-window="${w.at}"/></g>`,
    );
    const label = fit('wall time', x2 - x1 - 4, 11);
    if (label) grid.push(`<text x="${n((x1 + x2) / 2)}" y="${n(axisY - 8)}" text-anchor="middle" fill="#666600">${escapeXml(label)}</text>`);
  }
  grid.push(`<line x1="${PLOT_X}" y1="${n(axisY)}" x2="${PLOT_RIGHT}" y2="${n(axisY)}" stroke="#555"/>`);

  // dropped catch-up time: a line through the whole picture
  const dropped: string[] = [];
  for (const tr of tl.tracks) {
    for (const m of tr.marks) {
      if (m.kind !== 'dropped') continue;
      const x = n(X(m.t));
      dropped.push(
        `<g><title>${escapeXml(`${m.name}\nat ${seconds(m.t)}: the world fell behind, and the heartbeat steps beyond the catch-up cap were skipped`)}</title><line x1="${x}" y1="${n(axisY)}" x2="${x}" y2="${n(bottom)}" stroke="${STYLES.dropped.fill}" stroke-width="1.5" stroke-dasharray="4 3"/></g>`,
      );
    }
  }

  const height = Math.ceil(bottom + 26);
  const held = tl.inserted.length === 0 ? '' : ` · ${tl.inserted.length === 1 ? 'a savetimer window' : `${tl.inserted.length} savetimer windows`} drawn in wall time`;
  const sub = `game time ${seconds(tl.from - tl.gainedBefore)} to ${seconds(gameOf(tl, tl.to))}${held} · ${tl.tracks.length} tracks · hover over anything to read it`;
  out.push(`<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${height}" viewBox="0 0 ${WIDTH} ${height}" ${FONT} font-size="11">`);
  out.push(`<title>${escapeXml(title)}</title>`);
  out.push(`<rect width="${WIDTH}" height="${height}" fill="#ffffff"/>`);
  out.push(`<text x="${LABEL_X}" y="26" font-size="17" font-weight="bold">${escapeXml(title)}</text>`);
  out.push(`<text x="${LABEL_X}" y="44" fill="#555">${escapeXml(sub)}</text>`);
  out.push(...legend);
  out.push(...grid);
  out.push(...rows);
  out.push(...dropped);
  out.push(`<text x="${PLOT_RIGHT}" y="${n(bottom + 18)}" text-anchor="end" fill="#555">game time →</text>`);
  out.push('</svg>');
  return out.join('\n') + '\n';
}

/** The stretches of the axis where game time runs, each with how far the axis is ahead of game time there: [from, to, gained]. */
function gameSegments(tl: Timeline): [number, number, number][] {
  const out: [number, number, number][] = [];
  let a = tl.from;
  let gained = tl.gainedBefore;
  for (const w of tl.inserted) {
    if (w.start > a) out.push([a, Math.min(w.start, tl.to), gained]);
    gained += w.end - w.start;
    a = Math.max(a, w.end);
  }
  if (a < tl.to) out.push([a, tl.to, gained]);
  return out;
}

/** The game time at a point of the axis. */
function gameOf(tl: Timeline, axis: number): number {
  let gained = tl.gainedBefore;
  for (const w of tl.inserted) {
    if (w.start >= axis) break;
    if (w.end > axis) return w.at;
    gained += w.end - w.start;
  }
  return axis - gained;
}

function swatch(kind: Kind, cx: number, cy: number): string {
  const st = STYLES[kind];
  if (kind === 'dropped') return `<line x1="${n(cx)}" y1="${n(cy - 6)}" x2="${n(cx)}" y2="${n(cy + 6)}" stroke="${st.fill}" stroke-width="1.5" stroke-dasharray="4 3"/>`;
  if (isMarkKind(kind)) return markShape(kind, cx, cy);
  return `<rect x="${n(cx - 6)}" y="${n(cy - 5)}" width="12" height="10" fill="${st.fill}" stroke="#00000033"/>`;
}

function isMarkKind(kind: Kind): boolean {
  return kind === 'print' || kind === 'fired' || kind === 'arrival' || kind === 'cricket' || kind === 'frame' || kind === 'warning' || kind === 'error' || kind === 'input';
}

/** The small shape for a mark, centred on (x, y). */
function markShape(kind: Kind, x: number, y: number): string {
  const fill = STYLES[kind].fill;
  switch (kind) {
    case 'print':
    case 'warning':
    case 'error':
      return `<path d="M${n(x - 4)} ${n(y - 5)}h8l-4 9z" fill="${fill}"/>`;
    case 'fired':
    case 'input':
      return `<path d="M${n(x)} ${n(y - 5)}l5 5l-5 5l-5 -5z" fill="${fill}"/>`;
    case 'frame':
      return `<rect x="${n(x - 0.5)}" y="${n(y - 5)}" width="1" height="10" fill="${fill}"/>`;
    case 'arrival':
    case 'cricket':
      return `<circle cx="${n(x)}" cy="${n(y)}" r="3.5" fill="${fill}"/>`;
    default:
      // a moment on a track of spans (a set entered, a view reached): a tick in the span's ink
      return `<rect x="${n(x - 0.75)}" y="${n(y - 7)}" width="1.5" height="14" fill="${STYLES[kind].ink}"/>`;
  }
}

function trackRow(tr: Track, y: number, X: (t: number) => number): string {
  const parts: string[] = [];
  const label = fit(tr.name, PLOT_X - LABEL_X - 8, 11) ?? tr.name.slice(0, 3);
  parts.push(`<g><title>${escapeXml(tr.name)}</title><text x="${LABEL_X + 8}" y="${n(y + 13)}">${escapeXml(label)}</text></g>`);
  parts.push(`<line x1="${PLOT_X}" y1="${n(y + ROW)}" x2="${PLOT_RIGHT}" y2="${n(y + ROW)}" stroke="#f0f0f0"/>`);
  parts.push(...spanShapes(tr.spans, y, X));
  parts.push(...markShapes(tr.marks, y, X));
  return parts.join('\n');
}

/** Narrower than this, a span is one of a crowd (a poll loop's waits): like ones in a row are drawn as one. */
const CROWD_PX = 3;

function spanShapes(spans: Span[], y: number, X: (t: number) => number): string[] {
  const out: string[] = [];
  const narrow = (s: Span): boolean => X(s.end) - X(s.start) < CROWD_PX;
  for (let i = 0; i < spans.length; ) {
    const s = spans[i]!;
    let last = i;
    let count = 1;
    if (s.kind !== 'run' && narrow(s)) {
      // the same wait again and again, with only moments of running between
      for (let j = i + 1; j < spans.length; j++) {
        const u = spans[j]!;
        if (u.depth !== s.depth) break;
        if (u.kind === 'run' && u.end === u.start) continue;
        if (u.name !== s.name || u.kind !== s.kind || !narrow(u) || u.start !== spans[last]!.end) break;
        last = j;
        count++;
      }
    }
    if (count > 1) {
      const end = spans[last]!.end;
      out.push(spanShape({ ...s, name: `${s.name} × ${count}`, end }, y, X, `${s.name}, ${count} times in a row (a poll loop)\n${seconds(s.start)} → ${seconds(end)}`));
      i = last + 1;
    } else {
      out.push(spanShape(s, y, X));
      i++;
    }
  }
  return out;
}

function spanShape(s: Span, y: number, X: (t: number) => number, about = spanTitle(s)): string {
  const st = STYLES[s.kind];
  const x1 = X(s.start);
  const w = Math.max(X(s.end) - x1, s.kind === 'run' ? 1.2 : 1);
  // a child sits inside its parent: each level a little narrower in height
  const inset = s.kind === 'run' ? 1 : Math.min(s.depth, 2) * 3 + 2;
  const h = ROW - 2 * inset;
  const title = `<title>${escapeXml(about)}</title>`;
  let text = '';
  const label = w > 14 && s.kind !== 'run' ? fit(s.name, w - 6, 9.5) : null;
  if (label !== null) text = `<text x="${n(x1 + 3)}" y="${n(y + ROW / 2 + 3.3)}" font-size="9.5" fill="${st.ink}">${escapeXml(label)}</text>`;
  return `<g>${title}<rect x="${n(x1)}" y="${n(y + inset)}" width="${n(w)}" height="${n(h)}" fill="${st.fill}"/>${text}</g>`;
}

/** Marks of one kind that land on the same pixel are drawn once, their texts together. */
function markShapes(marks: Mark[], y: number, X: (t: number) => number): string[] {
  const out: string[] = [];
  for (let i = 0; i < marks.length; ) {
    const m = marks[i]!;
    const x = X(m.t);
    let j = i + 1;
    while (j < marks.length && marks[j]!.kind === m.kind && Math.abs(X(marks[j]!.t) - x) < 1) j++;
    if (m.kind !== 'dropped') {
      const texts = marks.slice(i, Math.min(j, i + 12)).map((k) => `${seconds(k.t)}  ${k.name}${markArgs(k.args)}`);
      if (j - i > 12) texts.push(`… and ${j - i - 12} more`);
      out.push(`<g><title>${escapeXml(texts.join('\n'))}</title>${markShape(m.kind, x, y + ROW / 2)}</g>`);
    }
    i = j;
  }
  return out;
}
