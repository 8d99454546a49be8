// The pictures in a real browser (Debian's headless Chromium): the page draws something
// (its screenshot is far from blank), a print's text shows when the pointer is on its
// marker, and the SVG alone is a well-formed picture with no script in it.
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import puppeteer, { type Browser } from 'puppeteer-core';
import { readScripts } from '../../src/node/load.ts';
import { loadProgram } from '../../src/engine/load.ts';
import { runHeadless } from '../../src/hosts/headless.ts';
import { parseDuration } from '../../src/time/units.ts';
import { TimelineBuilder } from '../../src/timeline/index.ts';
import { timelineHtml } from '../../src/timeline/html.ts';
import { timelineSvg } from '../../src/timeline/svg.ts';

// (these run in the page; the suite's types have no DOM)
declare const document: any;
declare const Image: any;

let browser: Browser;
let dir = '';
let html = '';
let svg = '';

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'pw-timeline-page-'));
  const b = new TimelineBuilder();
  const loaded = loadProgram(readScripts(['scripts']));
  runHeadless(loaded.program!, { print: () => {}, diagnostic: () => {}, trace: (ev) => b.add(ev) }, { fps: 60, until: parseDuration('20s'), timeline: true });
  const tl = b.build(0, 20_000);
  html = join(dir, 'demo.html');
  svg = join(dir, 'demo.svg');
  writeFileSync(html, timelineHtml(tl));
  writeFileSync(svg, timelineSvg(tl));
  browser = await puppeteer.launch({
    executablePath: '/usr/bin/chromium',
    headless: true,
    args: [...(process.getuid?.() === 0 ? ['--no-sandbox'] : []), '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
  });
});

afterAll(async () => {
  await browser?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('the timeline page in headless Chromium', () => {
  it('draws a picture: the screenshot has many coloured pixels in many colours', async () => {
    const page = await browser.newPage();
    await page.setViewport({ width: 1240, height: 900 });
    const requests: string[] = [];
    page.on('request', (r) => requests.push(r.url()));
    await page.goto(`file://${html}`, { waitUntil: 'load' });
    const shot = Buffer.from(await page.screenshot({ type: 'png' })).toString('base64');
    // nothing but the page itself was loaded
    expect(requests).toEqual([`file://${html}`]);
    // read the screenshot's pixels back on a canvas
    const scratch = await browser.newPage();
    const stats = await scratch.evaluate(async (b64: string) => {
      const img = new Image();
      img.src = `data:image/png;base64,${b64}`;
      await img.decode();
      const c = document.createElement('canvas');
      c.width = img.width;
      c.height = img.height;
      const g = c.getContext('2d')!;
      g.drawImage(img, 0, 0);
      const d = g.getImageData(0, 0, c.width, c.height).data;
      let inked = 0;
      const colours = new Set<number>();
      for (let i = 0; i < d.length; i += 4) {
        if (d[i]! < 240 || d[i + 1]! < 240 || d[i + 2]! < 240) inked++;
        colours.add(((d[i]! >> 4) << 8) | ((d[i + 1]! >> 4) << 4) | (d[i + 2]! >> 4));
      }
      return { inked, total: d.length / 4, colours: colours.size };
    }, shot);
    expect(stats.total).toBe(1240 * 900);
    expect(stats.inked / stats.total).toBeGreaterThan(0.05);
    expect(stats.colours).toBeGreaterThan(20);
    await page.close();
    await scratch.close();
  });

  it("shows a print's text when the pointer is on its marker", async () => {
    const page = await browser.newPage();
    await page.setViewport({ width: 1240, height: 900 });
    await page.goto(`file://${html}`, { waitUntil: 'load' });
    const marker = await page.evaluateHandle(() => [...document.querySelectorAll('svg g')].find((g: any) => g.querySelector(':scope > title')?.textContent?.includes('the demo world boots')));
    const el = marker.asElement() as import('puppeteer-core').ElementHandle<Element> | null;
    expect(el).not.toBeNull();
    await el!.hover();
    const info = await page.evaluate(() => document.getElementById('info').textContent as string);
    expect(info).toContain('the demo world boots: engine room first');
    await page.close();
  });

  it('the SVG alone is a well-formed picture without any script', async () => {
    const page = await browser.newPage();
    await page.goto(`file://${svg}`, { waitUntil: 'load' });
    const doc = await page.evaluate(() => ({
      root: document.documentElement.nodeName,
      errors: document.getElementsByTagName('parsererror').length,
      scripts: document.getElementsByTagName('script').length,
      bars: document.getElementsByTagName('rect').length,
      titles: [...document.getElementsByTagName('title')].map((t) => t.textContent ?? ''),
    }));
    expect(doc).toMatchObject({ root: 'svg', errors: 0, scripts: 0 });
    expect(doc.bars).toBeGreaterThan(100);
    // the ticks are labelled in seconds, and the tracks carry the author's names
    const text = await page.evaluate(() => [...document.getElementsByTagName('text')].map((t) => t.textContent));
    for (const s of ['0 s', '10 s', '20 s', 'set engine · steamhiss', 'actor steward', 'sound slot 2', 'cricket rumble']) expect(text).toContain(s);
    expect(doc.titles.some((t) => t.startsWith('armed 45 steps\nat 0 s') || t.startsWith('armed 45 steps\n0 s → 2.25 s'))).toBe(true);
    await page.close();
  });
});
