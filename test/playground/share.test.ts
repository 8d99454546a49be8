// Share links: what the Share button packs into the hash comes back out whole, a link
// too long for a URL is refused with its length, and a damaged one is named as such.
import { describe, it, expect } from 'vitest';
import { MAX_LINK_CHARS, readShared, shareLink } from '../../playground/share.ts';

const BASE = 'http://127.0.0.1:8080/index.html';
const world = {
  files: [
    { name: 'a.pw', text: 'on startup\n  print ("hi ☃")\nend\n' },
    { name: 'b.pw', text: '-- nothing\n' },
  ],
  seed: 42,
  fps: 30,
};

describe('share links', () => {
  it('round-trips the scripts, seed and fps through the hash', () => {
    const link = shareLink(`${BASE}#w=old`, world);
    if (!link.ok) throw new Error(link.message);
    expect(link.url.startsWith(`${BASE}#w=`)).toBe(true);
    expect(link.url).not.toContain('old');
    expect(readShared(new URL(link.url).hash)).toEqual(world);
  });

  it('refuses a link longer than the limit and says how long it would be', () => {
    // text lz-string cannot shrink much: a pseudo-random digit string
    let text = '';
    let x = 7;
    while (text.length < 20_000) text += String((x = (x * 48271) % 2147483647));
    const link = shareLink(BASE, { ...world, files: [{ name: 'big.pw', text: `-- ${text}\n` }] });
    expect(link.ok).toBe(false);
    if (link.ok) return;
    expect(link.length).toBeGreaterThan(MAX_LINK_CHARS);
    expect(link.message).toContain(`${link.length} characters`);
    expect(link.message).toContain(String(MAX_LINK_CHARS));
  });

  it('reads no world from another hash, and names a damaged link', () => {
    expect(readShared('')).toBeNull();
    expect(readShared('#section')).toBeNull();
    const link = shareLink(BASE, world);
    if (!link.ok) throw new Error(link.message);
    const hash = new URL(link.url).hash;
    expect(readShared(hash.slice(0, hash.length / 2))).toBeInstanceOf(Error);
    expect(String(readShared('#w=garbage!'))).toMatch(/damaged|cannot read/);
    const noFps = shareLink(BASE, { ...world, fps: 0 });
    if (!noFps.ok) throw new Error(noFps.message);
    expect(readShared(new URL(noFps.url).hash)).toBeInstanceOf(Error);
  });
});
