// The picture as one self-contained page: the SVG inline, a few lines of style, and a
// small script that shows what the pointer is over at once (the SVG's own <title>
// tooltips work without it). Nothing is fetched.
import { escapeXml, timelineSvg } from './svg.ts';
import type { Timeline } from './model.ts';

const STYLE = `body { font: 13px Helvetica, Arial, sans-serif; margin: 16px; color: #222; background: #fff; }
#info { position: sticky; top: 0; z-index: 1; background: #fffbe6; border: 1px solid #e6d9a8; padding: 6px 10px; margin-bottom: 10px; white-space: pre-wrap; min-height: 2.6em; }
svg g:hover > rect, svg g:hover > path, svg g:hover > circle { stroke: #000; stroke-width: 1; }
.scroll { overflow-x: auto; }`;

// The hovered element's <title>, shown in the info box: no waiting for a tooltip.
const SCRIPT = `const info = document.getElementById('info');
const idle = info.textContent;
document.querySelector('svg').addEventListener('mouseover', (e) => {
  const g = e.target.closest('g');
  const t = g && g.querySelector(':scope > title');
  info.textContent = t ? t.textContent : idle;
});`;

export function timelineHtml(tl: Timeline, title = 'Pocketwatch timeline'): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>${escapeXml(title)}</title>
<style>
${STYLE}
</style>
</head>
<body>
<div id="info">Point at a bar or a marker to read it: prints show their text, waits what they wait for.</div>
<div class="scroll">
${timelineSvg(tl, title)}</div>
<script>
${SCRIPT}
</script>
</body>
</html>
`;
}
