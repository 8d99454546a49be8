// The world simulation: plain-data state and pure per-heartbeat services.
export * from './random.ts';
export * from './walk.ts';
export * from './pose.ts';
export * from './sound.ts';
export * from './cricket.ts';
