import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { bearing, createActor, pauseWalk, startWalk, stepWalk, stopWalk, turnToward, type ActorState, type WalkEvent, type WalkLeg } from '../../src/world/walk.ts';
import { setPose } from '../../src/world/pose.ts';

const STEP_MS = 50;

function star(name: string, x: number, y: number, z: number): WalkLeg {
  return { x, y, z, star: name };
}

// Steps until the walk ends; returns every event tagged with its step number (1-based).
function runWalk(a: ActorState, limit = 10_000): { step: number; ev: WalkEvent }[] {
  const out: { step: number; ev: WalkEvent }[] = [];
  for (let step = 1; a.walk && step <= limit; step++) {
    for (const ev of stepWalk(a)) out.push({ step, ev });
  }
  return out;
}

describe('bearing and turnToward', () => {
  it('measures degrees from +x toward +z in [0, 360)', () => {
    expect(bearing(0, 0, 10, 0)).toBe(0);
    expect(bearing(0, 0, 0, 10)).toBe(90);
    expect(bearing(0, 0, -10, 0)).toBe(180);
    expect(bearing(0, 0, 0, -10)).toBe(270);
    expect(bearing(0, 0, 5, 5)).toBe(45);
    expect(bearing(0, 0, Math.sqrt(3), 1)).toBe(30);
    expect(bearing(3, 3, 3, 3)).toBe(0);
  });

  it('turns the shorter way across 0/360', () => {
    expect(turnToward(350, 10, 15)).toBe(5);
    expect(turnToward(10, 350, 15)).toBe(355);
    expect(turnToward(5, 10, 15)).toBe(10);
    expect(turnToward(355, 10, 15)).toBe(10);
  });

  it('turns in the increasing direction when exactly opposite', () => {
    expect(turnToward(0, 180, 15)).toBe(15);
    expect(turnToward(270, 90, 15)).toBe(285);
    expect(turnToward(90, 270, 15)).toBe(105);
  });
});

describe('walks', () => {
  it('worked example: endturn at 300 ms, endwalk at 800 ms on the star', () => {
    const a = createActor('vlad');
    a.facing = 90;
    startWalk(a, 'defer', [star('boiler', 100, 0, 0)], 'boiler');
    expect(a.star).toBe('defer');

    const expectTurn = [75, 60, 45, 30, 15];
    for (let step = 1; step <= 5; step++) {
      expect(stepWalk(a)).toEqual([{ type: 'turn', actor: 'vlad', facing: expectTurn[step - 1] }]);
      expect([a.x, a.y, a.z]).toEqual([0, 0, 0]);
    }
    // 6th step, 300 ms: lands the facing; no movement yet.
    expect(stepWalk(a)).toEqual([{ type: 'endturn', actor: 'vlad', facing: 0 }]);
    expect(6 * STEP_MS).toBe(300);
    expect(a.x).toBe(0);
    expect(a.star).toBe('defer');

    setPose(a, 'walk'); // what the actor's endturn handler would do
    for (let step = 7; step <= 15; step++) {
      expect(stepWalk(a)).toEqual([]);
      expect(a.x).toBeCloseTo((step - 6) * 10, 9);
      expect(a.pose).toBe('walk');
      expect(a.star).toBe('defer');
    }
    // 16th step, 800 ms: arrival.
    expect(stepWalk(a)).toEqual([{ type: 'endwalk', actor: 'vlad', x: 100, y: 0, z: 0, star: 'boiler' }]);
    expect(16 * STEP_MS).toBe(800);
    expect([a.x, a.y, a.z]).toEqual([100, 0, 0]);
    expect(a.pose).toBe('stand');
    expect(a.star).toBe('boiler');
    expect(a.walk).toBeNull();
    expect(stepWalk(a)).toEqual([]);
  });

  it('turns the shorter way across 0/360 during a walk', () => {
    const a = createActor('a');
    a.facing = 350;
    const target = bearing(0, 0, 100, 100 * Math.tan((10 * Math.PI) / 180));
    expect(target).toBeCloseTo(10, 6);
    startWalk(a, 'walktoxyz', [{ x: 100, y: 0, z: 100 * Math.tan((10 * Math.PI) / 180), star: null }], '');
    const first = stepWalk(a);
    expect(first).toEqual([{ type: 'turn', actor: 'a', facing: 5 }]);
    const second = stepWalk(a);
    expect(second[0]!.type).toBe('endturn');
    expect(a.facing).toBe(target);
  });

  it('turns through 180 in the increasing direction', () => {
    const a = createActor('a');
    a.facing = 0;
    a.turn = 45;
    startWalk(a, 'walktoxyz', [{ x: -20, y: 0, z: 0, star: null }], '');
    const facings = runWalk(a)
      .filter((e) => e.ev.type === 'turn' || e.ev.type === 'endturn')
      .map((e) => (e.ev as { facing: number }).facing);
    expect(facings).toEqual([45, 90, 135, 180]);
  });

  it('moves in the same step when already facing the target', () => {
    const a = createActor('a');
    a.facing = 0;
    startWalk(a, 'walktoxyz', [{ x: 25, y: 0, z: 0, star: null }], '');
    expect(stepWalk(a)).toEqual([{ type: 'endturn', actor: 'a', facing: 0 }]);
    expect(a.x).toBe(10);
    expect(stepWalk(a)).toEqual([]);
    expect(stepWalk(a)).toEqual([{ type: 'endwalk', actor: 'a', x: 25, y: 0, z: 0, star: null }]);
    expect(a.star).toBe('');
  });

  it('a zero-length walk arrives on its first step', () => {
    const a = createActor('a');
    a.x = 5;
    a.z = 7;
    a.facing = 123;
    setPose(a, 'walk');
    startWalk(a, 'defer', [star('here', 5, 0, 7)], 'here');
    expect(stepWalk(a)).toEqual([{ type: 'endwalk', actor: 'a', x: 5, y: 0, z: 7, star: 'here' }]);
    expect(a.facing).toBe(123);
    expect(a.pose).toBe('stand');
    expect(a.star).toBe('here');
  });

  it('a new walk replaces the one in progress', () => {
    const a = createActor('a');
    startWalk(a, 'defer', [star('far', 100, 0, 0)], 'far');
    stepWalk(a);
    stepWalk(a);
    expect(a.x).toBe(20);
    startWalk(a, 'walktoxyz', [{ x: 20, y: 0, z: 30, star: null }], '');
    expect(a.star).toBe('walktoxyz');
    expect(a.walk!.dest).toBe('');
    const events = runWalk(a);
    expect(events.filter((e) => e.ev.type === 'endwalk')).toHaveLength(1);
    expect([a.x, a.y, a.z]).toEqual([20, 0, 30]);
    expect(a.star).toBe('');
  });

  it('stopping mid-turn leaves the facing where it got to, with no events', () => {
    const a = createActor('a');
    a.facing = 90;
    setPose(a, 'walk');
    startWalk(a, 'defer', [star('s', 100, 0, 0)], 's');
    stepWalk(a);
    stepWalk(a);
    expect(a.facing).toBe(60);
    stopWalk(a);
    expect(a.walk).toBeNull();
    expect(a.star).toBe('');
    expect(a.facing).toBe(60);
    expect(a.pose).toBe('walk');
    expect(stepWalk(a)).toEqual([]);
    expect([a.x, a.z]).toEqual([0, 0]);
  });

  it('a paused walk does nothing until resumed', () => {
    const a = createActor('a');
    startWalk(a, 'defer', [star('s', 30, 0, 0)], 's');
    stepWalk(a);
    expect(a.x).toBe(10);
    pauseWalk(a, true);
    for (let i = 0; i < 5; i++) expect(stepWalk(a)).toEqual([]);
    expect(a.x).toBe(10);
    expect(a.star).toBe('defer');
    pauseWalk(a, false);
    stepWalk(a);
    expect(a.x).toBe(20);
    expect(stepWalk(a)[0]!.type).toBe('endwalk');
  });

  it('walkonpath: leg events, an endturn per leg, ends on the last star', () => {
    const a = createActor('a');
    a.facing = 0;
    const legs = [star('p1', 20, 0, 0), star('p2', 20, 0, 20), star('p3', 0, 0, 20)];
    startWalk(a, 'walkonpath', legs, 'route');
    const seen: string[] = [];
    let step = 0;
    while (a.walk) {
      step++;
      for (const ev of stepWalk(a)) {
        if (ev.type === 'turn') continue;
        seen.push(`${step}:${ev.type}${'star' in ev ? ':' + ev.star : ''}`);
      }
      if (a.walk) expect(a.star).toBe('walkonpath');
    }
    // Leg 1: aligned, endturn + move at step 1, arrive step 2.
    // Leg 2: turn 0 -> 90 in 6 steps (3..8), move 9..10.
    // Leg 3: turn 90 -> 180 in 6 steps (11..16), move 17..18.
    expect(seen).toEqual(['1:endturn', '2:leg:p1', '8:endturn', '10:leg:p2', '16:endturn', '18:endwalk:p3']);
    expect([a.x, a.y, a.z]).toEqual([0, 0, 20]);
    expect(a.star).toBe('p3');
    expect(a.facing).toBe(180);
  });

  it('can be saved to JSON mid-walk and resumed identically', () => {
    const a = createActor('a');
    a.facing = 200;
    startWalk(a, 'walkonpath', [star('p1', 33, 4, -17), star('p2', -12, 0, 40)], 'route');
    for (let i = 0; i < 9; i++) stepWalk(a);
    const b = JSON.parse(JSON.stringify(a)) as ActorState;
    expect(runWalk(b)).toEqual(runWalk(a));
    expect(b).toEqual(a);
  });

  it('edge settings: turn 0 snaps in one step, speed 0 holds the walk, an empty route ends at once', () => {
    const a = createActor('a');
    a.turn = 0;
    a.facing = 90;
    startWalk(a, 'walktoxyz', [{ x: 10, y: 0, z: 0, star: null }], '');
    expect(stepWalk(a)).toEqual([{ type: 'endturn', actor: 'a', facing: 0 }]);

    const b = createActor('b');
    b.speed = 0;
    startWalk(b, 'walktoxyz', [{ x: 10, y: 0, z: 0, star: null }], '');
    for (let i = 0; i < 5; i++) stepWalk(b);
    expect(b.walk).not.toBeNull();
    expect(b.x).toBe(0);

    const c = createActor('c');
    startWalk(c, 'walkonpath', [], 'nowhere');
    expect(stepWalk(c)).toEqual([{ type: 'endwalk', actor: 'c', x: 0, y: 0, z: 0, star: null }]);
    expect(c.star).toBe('');
  });

  it('walks in 3D and lands exactly on the target', () => {
    const a = createActor('a');
    a.facing = 0;
    a.speed = 3;
    startWalk(a, 'walktoxyz', [{ x: 10, y: 7, z: 0.1, star: null }], '');
    runWalk(a);
    expect([a.x, a.y, a.z]).toEqual([10, 7, 0.1]);
  });
});

function shortestAngle(from: number, to: number): number {
  const d = (((to - from) % 360) + 360) % 360;
  return d > 180 ? 360 - d : d;
}

describe('walk properties', () => {
  it('always ends exactly on target, facing in [0, 360), in turning + moving steps', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 400 }).map((n) => n / 8), // speed
        fc.integer({ min: 1, max: 360 }).map((n) => n / 2), // turn
        fc.integer({ min: 0, max: 359 }), // facing
        fc.tuple(fc.integer({ min: -300, max: 300 }), fc.integer({ min: -50, max: 50 }), fc.integer({ min: -300, max: 300 })),
        fc.tuple(fc.integer({ min: -300, max: 300 }), fc.integer({ min: -50, max: 50 }), fc.integer({ min: -300, max: 300 })),
        (speed, turn, facing, [sx, sy, sz], [tx, ty, tz]) => {
          const a = createActor('p');
          Object.assign(a, { x: sx, y: sy, z: sz, facing, speed, turn });
          startWalk(a, 'walktoxyz', [{ x: tx, y: ty, z: tz, star: null }], '');
          const horizontal = sx !== tx || sz !== tz;
          const distance = Math.hypot(tx - sx, ty - sy, tz - sz);
          const angle = horizontal ? shortestAngle(facing, bearing(sx, sz, tx, tz)) : 0;
          let steps = 0;
          let turningSteps = 0;
          let endturns = 0;
          let facingOk = true;
          while (a.walk) {
            steps++;
            const ev = stepWalk(a);
            if (ev.some((e) => e.type === 'turn')) turningSteps++;
            if (ev.some((e) => e.type === 'endturn')) {
              endturns++;
              // The landing step of a real turn is a turning step too.
              if (angle > 0) turningSteps++;
            }
            if (!(a.facing >= 0 && a.facing < 360)) facingOk = false;
            if (steps > 100_000) break;
          }
          expect(facingOk).toBe(true);
          expect([a.x, a.y, a.z]).toEqual([tx, ty, tz]);
          // No turning step when already facing the target (or no bearing exists).
          const expectedTurning = angle > 1e-7 ? Math.ceil(angle / turn - 1e-9) : 0;
          // A zero-length walk still takes its one arrival step.
          const expectedMoving = Math.max(1, Math.ceil((distance - 1e-6) / speed));
          expect(turningSteps).toBe(expectedTurning);
          expect(steps).toBe(expectedTurning + expectedMoving);
          expect(endturns).toBe(distance === 0 ? 0 : 1);
        },
      ),
      { numRuns: 1000 },
    );
  });
});
