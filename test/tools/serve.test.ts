// The playground's static server (tools/serve.mjs): any page the author visits can
// send it requests, so a malformed one is answered and the server goes on.
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { spawn, type ChildProcess } from 'node:child_process';
import { connect } from 'node:net';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const SERVE = fileURLToPath(new URL('../../tools/serve.mjs', import.meta.url));
let server: ChildProcess;
let port = 0;
let dir = '';

/** One raw HTTP/1.1 request, as typed: the status line of the answer. */
function request(target: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.write(`GET ${target} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n`));
    let answer = '';
    socket.setEncoding('latin1');
    socket.on('data', (d: string) => (answer += d));
    socket.on('end', () => resolve(answer.split('\r\n')[0] ?? ''));
    socket.on('error', reject);
  });
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'pw-serve-'));
  writeFileSync(join(dir, 'index.html'), '<!doctype html><title>t</title>');
  server = spawn(process.execPath, [SERVE, dir, '--port', '0'], { stdio: ['ignore', 'pipe', 'pipe'] });
  port = await new Promise<number>((resolve, reject) => {
    let out = '';
    server.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /127\.0\.0\.1:(\d+)/.exec(out);
      if (m) resolve(Number(m[1]));
    });
    server.on('exit', (code) => reject(new Error(`the server exited (${code}) before listening`)));
  });
});

afterAll(() => {
  server.kill();
  rmSync(dir, { recursive: true, force: true });
});

describe('tools/serve.mjs', () => {
  it('serves the playground page', async () => {
    expect(await request('/')).toBe('HTTP/1.1 200 OK');
  });

  it('answers a bad % escape with 400 and goes on serving', async () => {
    for (const bad of ['/%E0%A4%A', '/%', '/%zz', '/a%FF.js']) expect(await request(bad)).toBe('HTTP/1.1 400 Bad Request');
    expect(server.exitCode).toBeNull();
    expect(await request('/')).toBe('HTTP/1.1 200 OK');
  });

  it('refuses paths that climb out of its folder and answers 404 for what it does not have', async () => {
    expect(await request('/%2e%2e/%2e%2e/etc/passwd')).toMatch(/^HTTP\/1\.1 (403|404)/);
    expect(await request('/nothing-here.js')).toBe('HTTP/1.1 404 Not Found');
    expect(await request('/a%00b')).toMatch(/^HTTP\/1\.1 (400|404)/);
    expect(await request('/')).toBe('HTTP/1.1 200 OK');
  });
});
