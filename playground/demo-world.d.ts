// The demo world (scripts/*.pw), put into the page by the build (tools/playground.mjs).
declare module 'demo-world' {
  const files: { name: string; text: string }[];
  export default files;
}
