// The game's scripts and its pocketwatch.json, put into the page by the build (tools/game.mjs).
declare module 'game-scripts' {
  const game: {
    files: { name: string; text: string }[];
    builtins: Record<string, { params: string[]; doc: string; waits?: boolean; answers?: unknown[] }>;
  };
  export default game;
}
