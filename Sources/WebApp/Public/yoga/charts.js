// YogiYogini: horizontal bar charts as inline SVG (a label above each bar, the value after it).
import { svg } from './dom.js';
import { niceMax, barLength } from './logic.js';

/** rows: [{label, value, text}] → an <svg> as wide as `width` px. */
export function barChart(rows, { width = 320, title = '' } = {}) {
  const w = Math.max(220, Math.round(Math.min(width, 720)));
  const row = 38;
  const track = w - 96;
  const max = niceMax(Math.max(0, ...rows.map((r) => r.value)));
  const chart = svg('svg', {
    class: 'yg-bars', viewBox: `0 0 ${w} ${rows.length * row}`, width: w, height: rows.length * row, role: 'img',
    'aria-label': `${title}: ${rows.map((r) => `${r.label}, ${r.text}`).join('; ')}`,
  });
  rows.forEach((r, i) => {
    const y = i * row;
    const length = barLength(r.value, max, track);
    chart.append(
      svg('text', { x: 0, y: y + 14, class: 'yg-bar-label' }, r.label),
      svg('rect', { x: 0, y: y + 20, width: track, height: 12, rx: 3, class: 'yg-track' }),
      svg('rect', { x: 0, y: y + 20, width: length, height: 12, rx: 3, class: 'yg-bar' }),
      svg('text', { x: track + 8, y: y + 31, class: 'yg-bar-value' }, r.text),
    );
  });
  return chart;
}
