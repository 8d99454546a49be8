// A built page served from dist/ by the project's own static server, and Debian's
// Chromium driven headless by puppeteer-core (nothing downloads a browser).
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import puppeteer, { type Browser } from 'puppeteer-core';

export const CHROMIUM = '/usr/bin/chromium';
const root = fileURLToPath(new URL('../..', import.meta.url));

export interface Served {
  server: ChildProcess;
  /** http://127.0.0.1:PORT */
  origin: string;
}

/** tools/serve.mjs on a free loopback port, serving `dist/<folder>`. */
export function serveDist(folder: string): Promise<Served> {
  if (!existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing: apt-get install -y chromium (.ci/run does it)`);
  const server = spawn(process.execPath, [join(root, 'tools/serve.mjs'), join(root, 'dist', folder), '--port', '0'], { stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise<Served>((resolve, reject) => {
    server.stdout!.on('data', (chunk: Buffer) => {
      const m = /http:\/\/127\.0\.0\.1:\d+/.exec(String(chunk));
      if (m) resolve({ server, origin: m[0] });
    });
    server.on('exit', (code) => reject(new Error(`the static server exited (${code})`)));
  });
}

/** Headless Chromium, sandboxed unless running as root. */
export function launchChromium(): Promise<Browser> {
  return puppeteer.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: [...(process.getuid?.() === 0 ? ['--no-sandbox'] : []), '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-gpu'],
  });
}
