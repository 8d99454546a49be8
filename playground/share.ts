// Share links: the scripts, seed and fps of a playground world packed into the URL's
// hash (lz-string), so opening the link shows the same world. The hash never reaches a
// server; what bounds it is the places a link is pasted into (docs/decisions.md).
import { compressToEncodedURIComponent, decompressFromEncodedURIComponent } from 'lz-string';

/** Longest whole link the Share button makes (the figure RFC 9110 asks every client to handle). */
export const MAX_LINK_CHARS = 8000;

const PREFIX = '#w=';
const FORMAT = 1;

export interface SharedWorld {
  files: { name: string; text: string }[];
  seed: number;
  fps: number;
}

export type ShareResult = { ok: true; url: string } | { ok: false; length: number; message: string };

/** The link to `world` from a page at `base` (its address without the hash). */
export function shareLink(base: string, world: SharedWorld): ShareResult {
  const packed = compressToEncodedURIComponent(JSON.stringify({ v: FORMAT, files: world.files, seed: world.seed, fps: world.fps }));
  const url = `${base.replace(/#.*$/, '')}${PREFIX}${packed}`;
  if (url.length <= MAX_LINK_CHARS) return { ok: true, url };
  return {
    ok: false,
    length: url.length,
    message: `these scripts are too long for a share link: it would be ${url.length} characters, and links longer than ${MAX_LINK_CHARS} are cut off by some browsers, chats and servers`,
  };
}

const whole = (v: unknown, lo: number, hi: number): v is number => typeof v === 'number' && Number.isInteger(v) && v >= lo && v <= hi;

/**
 * The world in a URL hash: null when the hash holds no share link, an Error (with a
 * message for the page) when it holds a damaged one.
 */
export function readShared(hash: string): SharedWorld | Error | null {
  if (!hash.startsWith(PREFIX)) return null;
  let data: unknown;
  try {
    data = JSON.parse(decompressFromEncodedURIComponent(hash.slice(PREFIX.length)) ?? '');
  } catch {
    return new Error('the share link is damaged (cut short when it was copied?): showing the demo world instead');
  }
  const d = data as Partial<SharedWorld> & { v?: unknown };
  const filesOk =
    Array.isArray(d?.files) &&
    d.files.length > 0 &&
    d.files.every((f) => f !== null && typeof f === 'object' && typeof f.name === 'string' && f.name !== '' && typeof f.text === 'string') &&
    new Set(d.files.map((f) => f.name)).size === d.files.length;
  if (d?.v !== FORMAT || !filesOk || !whole(d.seed, 0, Number.MAX_SAFE_INTEGER) || !whole(d.fps, 1, 1000)) {
    return new Error('the share link does not hold a world this playground can read: showing the demo world instead');
  }
  return { files: d.files!.map((f) => ({ name: f.name, text: f.text })), seed: d.seed, fps: d.fps };
}
