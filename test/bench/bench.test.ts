// The benchmark scripts at tiny sizes: they must compute what the plain-JS versions
// compute. Correctness only: speed is measured by `npm run bench`, never here.
import { describe, it, expect } from 'vitest';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { micro, resume, sleepers, fastForward, parseCompile, generateScript } from './pw-entry.ts';

const root = fileURLToPath(new URL('../..', import.meta.url));
const script = (name: string) => readFileSync(new URL(`./micro/${name}`, import.meta.url), 'utf8');

describe('benchmark scripts (tiny sizes)', () => {
  for (const [name, n] of [['fib', 12], ['loop', 1000], ['string', 1234]] as const) {
    it(`${name} (${n}) agrees with plain JavaScript`, async () => {
      const js = await import(`./micro/${name}.mjs`);
      const go = micro(root, script(`${name}.pw`)).prepare(n);
      expect(go()).toBe(js.bench(n));
      expect(go()).toBe(js.bench(n)); // a second run on the same engine too
    });
  }

  it('resume counts one wake-up per host tick', () => {
    expect(resume(root, script('resume.pw')).prepare(500)()).toBe(500);
  });

  it('sleepers keep every thread alive and waking', () => {
    const r = sleepers(root, 50, '10s').prepare()() as { threads: number; naps: number };
    expect(r.threads).toBe(50);
    expect(r.naps).toBeGreaterThan(50);
  });

  it('the stand-in world runs without script errors', () => {
    const r = fastForward(root, 'test/bench/world', '2m').prepare()() as { prints: number; steps: number };
    expect(r.prints).toBeGreaterThan(0);
    expect(r.steps).toBe(2 * 60 * 20);
  });

  it('the generated script compiles', () => {
    const text = generateScript(20_000);
    expect(text.length).toBeGreaterThanOrEqual(20_000);
    expect(parseCompile(root, text).prepare()()).toBeGreaterThan(20);
  });
});
