// Pose animation: every actor steps one frame of its pose per heartbeat pass,
// walking or standing. How fast the feet move is the pose's frame count, never the
// walk speed; the two are independent.

/** What has a pose: an actor, seen only by its pose and frame. */
export interface Posed {
  pose: string;
  poseFrame: number;
}

// Pose name -> frame count, from `defpose (name, frames)`.
export type PoseTable = Record<string, number>;

// An undefined pose, or a nonsensical count, animates as a single frame.
export function poseFrames(poses: PoseTable, name: string): number {
  // (a table without a prototype; were it a plain object, nothing it inherits is a count)
  const n = poses[name];
  return typeof n === 'number' && Number.isFinite(n) && n >= 1 ? Math.floor(n) : 1;
}

// Changing the pose restarts its animation; naming the pose already shown keeps the
// frame, so an endturn handler that re-asserts "walk" on every leg does not stutter.
export function setPose(a: Posed, name: string): void {
  if (a.pose === name) return;
  a.pose = name;
  a.poseFrame = 0;
}

/** k steps of the actor's pose at once (one per heartbeat pass). */
export function stepPose(a: Posed, poses: PoseTable, k = 1): void {
  const n = poseFrames(poses, a.pose);
  // Modulo also repairs a frame left out of range by a pose redefined shorter.
  a.poseFrame = (a.poseFrame + k) % n;
}

export function stepPoses(actors: Iterable<Posed>, poses: PoseTable, k = 1): void {
  for (const a of actors) stepPose(a, poses, k);
}
