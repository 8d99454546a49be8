import { describe, expect, it } from 'vitest';
import { poseFrames, setPose, stepPose, stepPoses, type PoseTable } from '../../src/world/pose.ts';
import { createActor, startWalk, stepWalk } from '../../src/world/walk.ts';

const poses: PoseTable = { stand: 1, walk: 4, wave: 3 };

describe('poses', () => {
  it('an idle actor steps its pose every pass and wraps to 0', () => {
    const a = createActor('a');
    setPose(a, 'wave');
    const frames: number[] = [];
    for (let i = 0; i < 7; i++) {
      stepPose(a, poses);
      frames.push(a.poseFrame);
    }
    expect(frames).toEqual([1, 2, 0, 1, 2, 0, 1]);
  });

  it('a walking actor steps its pose independently of its movement', () => {
    const a = createActor('a');
    a.facing = 0;
    startWalk(a, 'walktoxyz', [{ x: 100, y: 0, z: 0, star: null }], '');
    setPose(a, 'walk');
    const frames: number[] = [];
    for (let i = 0; i < 6; i++) {
      stepWalk(a);
      stepPose(a, poses);
      frames.push(a.poseFrame);
    }
    expect(frames).toEqual([1, 2, 3, 0, 1, 2]);
    expect(a.x).toBe(60);
  });

  it('a new pose restarts at frame 0; the same pose keeps its frame', () => {
    const a = createActor('a');
    setPose(a, 'walk');
    stepPose(a, poses);
    stepPose(a, poses);
    setPose(a, 'walk');
    expect(a.poseFrame).toBe(2);
    setPose(a, 'wave');
    expect(a.poseFrame).toBe(0);
  });

  it('an undefined pose counts as one frame', () => {
    const a = createActor('a');
    setPose(a, 'mystery');
    expect(poseFrames(poses, 'mystery')).toBe(1);
    stepPose(a, poses);
    expect(a.poseFrame).toBe(0);
    expect(poseFrames(poses, 'toString')).toBe(1);
  });

  it('stand is restored on arrival, and steps all actors', () => {
    const a = createActor('a');
    const b = createActor('b');
    setPose(b, 'wave');
    startWalk(a, 'defer', [{ x: 5, y: 0, z: 0, star: 's' }], 's');
    setPose(a, 'walk');
    stepPoses([a, b], poses);
    expect([a.poseFrame, b.poseFrame]).toEqual([1, 1]);
    stepWalk(a);
    expect(a.pose).toBe('stand');
    expect(a.poseFrame).toBe(0);
  });
});
