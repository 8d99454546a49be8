/// <reference lib="dom" />
// The playground page in a real browser: Debian's Chromium, headless, driven by
// puppeteer-core over the built page served from 127.0.0.1. It runs the demo world,
// shows printed lines and the game time moving, marks a syntax error typed into the
// editor, and never asks anything of another origin.
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import type { ChildProcess } from 'node:child_process';
import type { Browser, Page } from 'puppeteer-core';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { launchChromium, serveDist } from '../support/browser.ts';
import { shareLink } from '../../playground/share.ts';
import { checkOracleFile } from '../../src/oracle/check.ts';

let server: ChildProcess;
let browser: Browser;
let page: Page;
let origin = '';
const requests: string[] = [];
const pageErrors: string[] = [];

beforeAll(async () => {
  ({ server, origin } = await serveDist('playground'));
  browser = await launchChromium();
  page = await browser.newPage();
  page.on('request', (r) => requests.push(r.url()));
  page.on('pageerror', (e) => pageErrors.push(String(e)));
  // every stereo panner the page makes, to read the pan of each tone it plays
  await page.evaluateOnNewDocument(() => {
    const w = window as unknown as { panners: StereoPannerNode[] };
    w.panners = [];
    const make = AudioContext.prototype.createStereoPanner;
    AudioContext.prototype.createStereoPanner = function (this: AudioContext) {
      const p = make.call(this);
      w.panners.push(p);
      return p;
    };
  });
  await page.goto(`${origin}/index.html`, { waitUntil: 'load' });
});

afterAll(async () => {
  await browser?.close();
  server?.kill();
});

const gameTime = () => page.$eval('#game-time', (e) => e.textContent ?? '');
const lines = () => page.$$eval('#output > *', (es) => es.map((e) => e.textContent ?? ''));

describe('the playground page', () => {
  it('runs the demo world: printed lines appear, one element each, and the game time advances', async () => {
    await page.click('#run');
    await page.waitForFunction(() => document.querySelectorAll('#output > *').length >= 2, { timeout: 15_000 });
    const first = await lines();
    expect(first[0]).toContain('the demo world boots');
    expect(first[1]).toContain('engine room');
    const t0 = await gameTime();
    await page.waitForFunction((t) => document.getElementById('game-time')!.textContent !== t, { timeout: 10_000 }, t0);
    expect(parseFloat(await gameTime())).toBeGreaterThan(parseFloat(t0));
    // the status line and the canvas show the world
    expect(await page.$eval('#status', (e) => e.textContent)).toMatch(/loops \d+\/32.*crickets \d+\/16/);
    const drawn = await page.$eval('#view', (c) => {
      const d = (c as HTMLCanvasElement).getContext('2d')!.getImageData(0, 0, (c as HTMLCanvasElement).width, (c as HTMLCanvasElement).height).data;
      let n = 0;
      for (let i = 3; i < d.length; i += 4) if (d[i]! > 0) n++;
      return n;
    });
    expect(drawn).toBeGreaterThan(500);
  });

  it('plays the sounds through Web Audio at their pan', async () => {
    // the first cricket shots of the demo world come at 3 s and 4.5 s of game time, panned
    await page.waitForFunction(() => (window as unknown as { panners: StereoPannerNode[] }).panners.some((p) => p.pan.value !== 0), { timeout: 15_000 });
    const pans = await page.evaluate(() => (window as unknown as { panners: StereoPannerNode[] }).panners.map((p) => p.pan.value));
    expect(pans.every((p) => p >= -1 && p <= 1)).toBe(true);
    expect(await page.$eval('#events', (e) => e.textContent)).toMatch(/sound "\w+" in slot 2 \(cricket \w+\) vol [\d.]+ pan -?[\d.]+/);
  });

  it('passes keys typed on the focused canvas to the world', async () => {
    await page.focus('#view');
    await page.keyboard.press('k');
    await page.keyboard.press(' ');
    await page.waitForFunction(() => /key "space" up/.test(document.getElementById('events')!.textContent ?? ''), { timeout: 10_000 });
    const log = (await page.$eval('#events', (e) => e.textContent)) ?? '';
    expect(log).toContain('key "k" down');
    expect(log).toContain('key "k" up');
    expect(log).toContain('key "space" down');
  });

  it('pauses both clocks, and steps one heartbeat at a time', async () => {
    await page.click('#pause');
    const paused = await page.$eval('#status', (e) => e.textContent ?? '');
    expect(paused).toContain('clock paused');
    const before = await page.evaluate(() => document.getElementById('status-rest')!.textContent);
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
    expect(await page.evaluate(() => document.getElementById('status-rest')!.textContent)).toBe(before);
    const t0 = await gameTime();
    for (let i = 0; i < 4; i++) await page.click('#step');
    // the first step lands on the next heartbeat, the others 50 ms each: 150 to 200 ms
    const moved = Math.round((parseFloat(await gameTime()) - parseFloat(t0)) * 10) / 10;
    expect(moved).toBeGreaterThanOrEqual(0.1);
    expect(moved).toBeLessThanOrEqual(0.2);
    await page.click('#save');
    await page.click('#run');
    await page.waitForFunction((t) => document.getElementById('game-time')!.textContent !== t, { timeout: 10_000 }, await gameTime());
    await page.click('#restore');
    expect(await page.$eval('#events', (e) => e.textContent)).toContain('restored the saved world');
  });

  it('marks a syntax error typed into the editor', async () => {
    const marked = '.cm-lintRange-error, .cm-lintPoint-error';
    expect(await page.$$(marked)).toHaveLength(0);
    await page.click('.cm-content');
    await page.keyboard.down('Control');
    await page.keyboard.press('End');
    await page.keyboard.up('Control');
    await page.keyboard.type('\non oops\n  x = (1 +\nend\n');
    await page.waitForSelector(marked, { timeout: 10_000 });
    expect(await page.$$('.cm-lint-marker-error')).toHaveLength(1);
    expect(await page.$eval('#problems', (e) => e.textContent)).toMatch(/scripts\/world\.pw:\d+:\d+: syntax error/);
  });

  it('makes a share link that opens the same world in a fresh page, which prints the same lines', async () => {
    const a = await browser.newPage();
    a.on('pageerror', (e) => pageErrors.push(String(e)));
    await a.goto(`${origin}/index.html`, { waitUntil: 'load' });
    // an edited startup handler and another seed: both must travel in the link
    await a.click('.cm-content');
    await a.keyboard.down('Control');
    await a.keyboard.press('Home');
    await a.keyboard.up('Control');
    for (let i = 1; i < 15; i++) await a.keyboard.press('ArrowDown');
    await a.keyboard.press('End');
    await a.keyboard.type('\nprint ("shared, seed 7: " .. random (1000000))');
    await a.$eval('#seed', (e) => ((e as HTMLInputElement).value = '7'));
    await a.click('#share');
    const url = await a.$eval('#share-link', (e) => (e as HTMLInputElement).value);
    expect(url).toMatch(/#w=[A-Za-z0-9+\-$]+$/);
    expect(a.url()).toBe(url);

    const b = await browser.newPage();
    b.on('pageerror', (e) => pageErrors.push(String(e)));
    await b.goto(url, { waitUntil: 'load' });
    expect(await b.$eval('#seed', (e) => (e as HTMLInputElement).value)).toBe('7');
    expect(await b.$eval('.cm-content', (e) => e.textContent)).toContain('print ("shared, seed 7: " .. random (1000000))');
    expect(await b.$eval('#events', (e) => e.textContent)).toContain('opened a shared world: 7 files, seed 7, 60 fps');

    // both run to the same printed lines (the steam's random periods follow the seed),
    // stepped heartbeat by heartbeat so that the machine's speed plays no part
    const printed = (p: Page) =>
      p.evaluate(() => {
        for (let i = 0; i < 120; i++) document.getElementById('step')!.click();
        return [...document.querySelectorAll('#output > *')].map((e) => e.textContent ?? '');
      });
    const fromA = await printed(a);
    const fromB = await printed(b);
    expect(fromA.length).toBeGreaterThanOrEqual(6);
    expect(fromA[1]).toMatch(/^shared, seed 7: \d+$/);
    expect(fromB).toEqual(fromA);
    await a.close();
    await b.close();
  });

  it('marks a runtime error at its line: in the gutter and the problems bar, not only in the events log', async () => {
    const p = await browser.newPage();
    p.on('pageerror', (e) => pageErrors.push(String(e)));
    await p.goto(`${origin}/index.html`, { waitUntil: 'load' });
    await p.click('.cm-content');
    await p.keyboard.down('Control');
    await p.keyboard.press('Home');
    await p.keyboard.up('Control');
    for (let i = 1; i < 15; i++) await p.keyboard.press('ArrowDown');
    await p.keyboard.press('End');
    await p.keyboard.type('\nwrong = [1, 2]; print (wrong[5])');
    await p.click('#run');
    await p.waitForSelector('.cm-lint-marker-error', { timeout: 15_000 });
    expect(await p.$eval('#problems', (e) => e.textContent)).toMatch(/^scripts\/world\.pw:16:\d+: runtime error: index 5 is out of range/);
    expect(await p.$eval('#events', (e) => e.textContent)).toContain('index 5 is out of range');
    // the gutter's mark and the underlined range stand on the line that failed
    const at = await p.evaluate(() => {
      const line = [...document.querySelectorAll('.cm-line')].find((l) => l.textContent!.includes('wrong[5]'))!.getBoundingClientRect();
      const mark = document.querySelector('.cm-lint-marker-error')!.getBoundingClientRect();
      const range = document.querySelector('.cm-lintRange-error')!.getBoundingClientRect();
      return { line: line.top + line.height / 2, mark: mark.top + mark.height / 2, range: range.top + range.height / 2 };
    });
    expect(Math.abs(at.mark - at.line)).toBeLessThan(4);
    expect(Math.abs(at.range - at.line)).toBeLessThan(4);
    await p.close();
  });

  it('records: Record starts the world afresh, keys typed on the canvas are recorded, Stop gives an oracle pw check passes', async () => {
    const hall = 'set hall\n  on key (name)\n    print ("key " .. name .. " at " .. gametime ())\n  end\nendset\n\non startup\n  gotoset ("hall")\n  print ("hall open")\nend\n';
    const link = shareLink(`${origin}/index.html`, { files: [{ name: 'hall.pw', text: hall }], seed: 3, fps: 60 });
    if (!link.ok) throw new Error(link.message);
    const p = await browser.newPage();
    p.on('pageerror', (e) => pageErrors.push(String(e)));
    await p.goto(link.url, { waitUntil: 'load' });
    await p.click('#record');
    expect(await p.$eval('#record', (e) => [e.textContent, e.getAttribute('aria-pressed')])).toEqual(['Stop recording', 'true']);
    await p.waitForFunction(() => document.getElementById('output')!.textContent!.includes('hall open'), { timeout: 15_000 });
    await p.focus('#view');
    await p.keyboard.press('k');
    await p.waitForFunction(() => /key k at \d+/.test(document.getElementById('output')!.textContent ?? ''), { timeout: 10_000 });
    await p.click('#record');
    expect(await p.$eval('#record', (e) => [e.textContent, e.getAttribute('aria-pressed')])).toEqual(['Record', 'false']);
    expect(await p.$eval('#recording', (e) => (e as HTMLElement).hidden)).toBe(false);
    const text = await p.$eval('#oracle-text', (e) => (e as HTMLTextAreaElement).value);
    const download = await p.$eval('#oracle-download', (e) => ({ name: e.getAttribute('download'), href: (e as HTMLAnchorElement).href }));
    await p.close();
    expect(download.name).toBe('recording.oracle');
    expect(decodeURIComponent(download.href.replace(/^data:text\/plain;charset=utf-8,/, ''))).toBe(text);
    expect(text).toMatch(/^-- oracle: recorded in the playground\n-- until: \d+(\.\d+)?ms\n-- seed: 3\n-- keep-going: yes\n-- key: (\d+) down k\n-- key: \d+ up k\n\nset hall\n/);
    const pressed = Number(/^-- key: (\d+) down k$/m.exec(text)![1]);
    expect(text).toContain(`{"t":${pressed},"ev":"print","text":"key k at ${pressed}"}`);
    // the oracle passes pw check, and fails once its expectation is edited
    const file = join(mkdtempSync(join(tmpdir(), 'pw-playground-')), 'recording.oracle');
    writeFileSync(file, text);
    const passed = checkOracleFile(file);
    expect(passed.problem).toBeNull();
    expect(passed.ok).toBe(true);
    writeFileSync(file, text.replace(`"key k at ${pressed}"`, `"key k at ${pressed + 50}"`));
    expect(checkOracleFile(file).ok).toBe(false);
  }, 60_000);

  it('asks nothing of another origin, and throws nothing', () => {
    expect(requests.length).toBeGreaterThan(2);
    expect(requests.filter((u) => !u.startsWith(`${origin}/`) && !u.startsWith('data:'))).toEqual([]);
    expect(pageErrors).toEqual([]);
  });
});
