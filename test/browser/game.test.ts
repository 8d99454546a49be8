/// <reference lib="dom" />
// The example game's page (dist/game, built from examples/game) in headless Chromium:
// it speaks its opening line by itself, draws its stage, takes choices and clicks on
// its hotspots, saves and loads through localStorage, passes an axe-core check, and
// throws nothing. The screenshots in docs/game.md are taken here.
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import type { ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, Page } from 'puppeteer-core';
import { launchChromium, serveDist } from '../support/browser.ts';

const root = fileURLToPath(new URL('../..', import.meta.url));
const require = createRequire(import.meta.url);

let server: ChildProcess;
let browser: Browser;
let page: Page;
let origin = '';
let loadedAt = 0;
const problems: string[] = [];

beforeAll(async () => {
  ({ server, origin } = await serveDist('game'));
  browser = await launchChromium();
  page = await browser.newPage();
  await page.setViewport({ width: 760, height: 640 });
  page.on('pageerror', (e) => problems.push(`page error: ${String(e)}`));
  page.on('console', (m) => {
    if (m.type() === 'error' || m.type() === 'warn') problems.push(`console ${m.type()}: ${m.text()}`);
  });
  page.on('requestfailed', (r) => problems.push(`request failed: ${r.url()}`));
  await page.goto(`${origin}/index.html`, { waitUntil: 'load' });
  loadedAt = Date.now();
});

afterAll(async () => {
  await browser?.close();
  server?.kill();
});

const line = () => page.$eval('#line', (e) => e.textContent ?? '');
const gameTime = () => page.$eval('#game-time', (e) => parseFloat(e.textContent ?? ''));
/** The screenshots in docs/game.md: taken when missing, or again with SCREENSHOTS=1 (so a test run leaves the checkout as it was). */
async function shot(name: string): Promise<void> {
  const path = join(root, 'docs', name) as `${string}.png`;
  if (process.env.SCREENSHOTS || !existsSync(path)) await page.screenshot({ path, type: 'png' });
}

/** The canvas point of world x, z (feet level, a little above): the stage's projection. */
async function stagePoint(x: number, z: number, up = 20): Promise<{ x: number; y: number }> {
  const r = await page.$eval('#stage', (e) => {
    const b = e.getBoundingClientRect();
    return { x: b.x, y: b.y, w: b.width, h: b.height };
  });
  return { x: r.x + ((400 + (x * 800) / 440) * r.w) / 800, y: r.y + ((450 * (0.6 + 0.34 * (z / 100)) - up) * r.h) / 450 };
}

/** Reads on (Continue) until the line says `text`. */
async function readUntil(text: string): Promise<void> {
  for (let i = 0; i < 12 && !(await line()).includes(text); i++) {
    if (await page.$('#continue')) await page.click('#continue');
    await page
      .waitForFunction((t, before) => document.getElementById('line')!.textContent!.includes(t) || document.getElementById('line')!.textContent !== before, { timeout: 5_000 }, text, await line())
      .catch(() => {});
  }
  expect(await line()).toContain(text);
}

describe('the example game page', () => {
  it('speaks its first line by itself within five seconds, on a stage that is drawn', async () => {
    await page.waitForFunction(() => document.getElementById('line')!.textContent!.includes('There you are'), { timeout: 5_000 });
    expect(Date.now() - loadedAt).toBeLessThan(5_000);
    // no sound before the player has done anything (browsers require a gesture)
    expect(await page.$eval('#sound-state', (e) => e.textContent)).toContain('sound off');
    expect(await page.$eval('#dialogue', (e) => e.querySelector('[aria-live]') !== null)).toBe(true);
    const colours = await page.$eval('#stage', (c) => {
      const cv = c as HTMLCanvasElement;
      const d = cv.getContext('2d')!.getImageData(0, 0, cv.width, cv.height).data;
      const seen = new Set<number>();
      for (let i = 0; i < d.length; i += 4 * 97) seen.add((d[i]! << 16) | (d[i + 1]! << 8) | d[i + 2]!);
      return seen.size;
    });
    expect(colours).toBeGreaterThan(20);
    // the pointer over the boat lights it and names it
    const boat = await stagePoint(-30, 60);
    await page.mouse.move(boat.x, boat.y);
    await page.waitForFunction(() => document.getElementById('stage')!.style.cursor === 'pointer', { timeout: 5_000 });
    await shot('game-shore.png');
  });

  it('reads on with the space bar, and continues the dialogue with the first choice', async () => {
    await page.keyboard.press('Space');
    expect(await page.$eval('#sound-state', (e) => e.textContent)).toBe('sound on');
    await page.waitForSelector('#choices button.choice', { timeout: 5_000 });
    const choices = await page.$$eval('#choices button.choice', (bs) => bs.map((b) => b.textContent));
    expect(choices).toEqual(['1. What needs doing?', '2. Who are you?']);
    await page.click('#choices button.choice');
    await page.waitForFunction(() => document.getElementById('line')!.textContent!.includes('clockwork is wound'), { timeout: 5_000 });
  });

  it('sends a click on a hotspot to the scripts, which answer it', async () => {
    const boat = await stagePoint(-30, 60);
    await page.mouse.click(boat.x, boat.y);
    await readUntil('A rowing boat, pulled up above the tide line');
    await readUntil('Up the tower with you');
    await page.click('#continue');
    // through the tower door into the lamp room, the second set (the keeper holds the
    // player back until the answer to his last line has reached the scripts)
    const door = await stagePoint(150, 0, 30);
    for (let i = 0; i < 5 && !(await line()).includes('The lamp room'); i++) {
      const before = await line();
      await page.mouse.click(door.x, door.y);
      await page.waitForFunction((b) => document.getElementById('line')!.textContent !== b, { timeout: 5_000 }, before).catch(() => {});
      if ((await line()).includes('Hold on')) await page.click('#continue');
    }
    await readUntil('The lamp room');
    const crank = await stagePoint(150, 45, 60);
    await page.mouse.move(crank.x, crank.y);
    await page.waitForFunction(() => document.getElementById('stage')!.style.cursor === 'pointer', { timeout: 5_000 });
    await shot('game-lamproom.png');
  });

  it('saves, and after a reload loads the game at its saved time, not from 0', async () => {
    await page.waitForFunction(() => parseFloat(document.getElementById('game-time')!.textContent!) > 2, { timeout: 10_000 });
    const before = await gameTime();
    await page.click('#save');
    const notice = await page.$eval('#notice', (e) => e.textContent ?? '');
    expect(notice).toMatch(/^Saved at \d+\.\d s of game time\.$/);
    const saved = parseFloat(notice.slice('Saved at '.length));
    expect(saved).toBeGreaterThanOrEqual(before);
    await page.reload({ waitUntil: 'load' });
    await page.waitForFunction(() => document.getElementById('line')!.textContent!.includes('There you are'), { timeout: 5_000 });
    expect(await gameTime()).toBeLessThan(saved);
    await page.click('#load');
    expect(await gameTime()).toBeGreaterThanOrEqual(saved);
    expect(await line()).toContain('The lamp room');
    // it goes on from there
    await page.waitForFunction((t) => parseFloat(document.getElementById('game-time')!.textContent!) > t + 0.3, { timeout: 10_000 }, saved);
    expect(await page.$eval('#notice', (e) => e.textContent)).toContain(`Loaded the game saved at ${saved.toFixed(1)} s`);
  });

  it('has no serious or critical accessibility violation (axe-core)', async () => {
    await page.addScriptTag({ content: readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8') });
    const violations = await page.evaluate(async () => {
      const r = await (window as unknown as { axe: { run(): Promise<{ violations: { id: string; impact: string; help: string }[] }> } }).axe.run();
      return r.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help }));
    });
    expect(violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')).toEqual([]);
  });

  it('logs no error and no warning, and fails no request', () => {
    expect(problems).toEqual([]);
  });
});
