import { h, s } from './dom.ts';

export interface Bar {
  label: string;
  value: number;
  /** What a reader hears and a tooltip shows, e.g. "2025-03-01: $0.0042 (12 requests)". */
  description: string;
}

const INK = 'chart-bar';

/**
 * A column chart (cost by day), drawn as inline SVG: no library, no inline style (the CSP forbids it).
 * Each column carries its description as a <title>; the figure's caption names the chart. The drawing
 * scales with the page; its units are roughly pixels at a full-width chart.
 */
export function columnChart(caption: string, bars: Bar[], formatValue: (value: number) => string): HTMLElement {
  const max = Math.max(...bars.map((bar) => bar.value), 0);
  const width = 1000;
  const top = 28;
  const baseline = 210;
  const step = width / Math.max(bars.length, 1);
  const labelEvery = Math.ceil(bars.length / 10);
  const svg = s(
    'svg',
    { viewBox: `0 0 ${width} ${baseline + 30}`, role: 'img', 'aria-label': caption, class: 'chart-svg' },
    s('text', { x: 0, y: 16, class: 'chart-axis' }, `max ${formatValue(max)}`),
    s('line', { x1: 0, x2: width, y1: top, y2: top, class: 'chart-grid' }),
    s('line', { x1: 0, x2: width, y1: baseline + 0.5, y2: baseline + 0.5, class: 'chart-baseline' }),
    bars.map((bar, index) => {
      const height = max > 0 && bar.value > 0 ? Math.max(2, (bar.value / max) * (baseline - top)) : 0;
      const x = index * step + step * 0.15;
      return s(
        'g',
        {},
        s('rect', { x, y: baseline - height, width: step * 0.7, height, rx: 2, class: INK }, s('title', {}, bar.description)),
        labelled(index, bars.length, labelEvery)
          ? s('text', { x: Math.min(Math.max(x + step * 0.35, 22), width - 22), y: baseline + 22, 'text-anchor': 'middle', class: 'chart-label' }, bar.label)
          : null,
      );
    }),
  );
  return h('figure', { class: 'chart' }, h('figcaption', {}, caption), svg, numbersTable(caption, bars.filter((bar) => bar.value > 0)));
}

/** Every `every`-th column is labelled, and the last one when it is not too close to the previous label. */
function labelled(index: number, count: number, every: number): boolean {
  if (index % every === 0) return true;
  return index === count - 1 && index % every >= every / 2;
}

/** A bar chart with one labelled row per item (cost by model), largest first as given. */
export function barChart(caption: string, bars: Bar[], formatValue: (value: number) => string): HTMLElement {
  const max = Math.max(...bars.map((bar) => bar.value), 0);
  const row = 34;
  const svg = s(
    'svg',
    { viewBox: `0 0 1000 ${bars.length * row + 6}`, role: 'img', 'aria-label': caption, class: 'chart-svg' },
    bars.map((bar, index) => {
      const y = index * row + 4;
      const width = max > 0 ? Math.max(2, (bar.value / max) * 560) : 0;
      return s(
        'g',
        {},
        s('text', { x: 0, y: y + 19, class: 'chart-label' }, bar.label.length > 36 ? `${bar.label.slice(0, 35)}…` : bar.label),
        s('rect', { x: 300, y, width, height: 26, rx: 3, class: INK }, s('title', {}, bar.description)),
        s('text', { x: 310 + width, y: y + 19, class: 'chart-value' }, formatValue(bar.value)),
      );
    }),
  );
  return h('figure', { class: 'chart' }, h('figcaption', {}, caption), svg, numbersTable(caption, bars));
}

/** The chart's numbers as a table, folded away: for screen readers and for copying. */
function numbersTable(caption: string, bars: Bar[]): HTMLElement {
  return h(
    'details',
    { class: 'chart-numbers' },
    h('summary', {}, 'Show the numbers'),
    h('table', {}, h('caption', { class: 'visually-hidden' }, caption), h('tbody', {}, bars.map((bar) => h('tr', {}, h('th', { scope: 'row' }, bar.label), h('td', {}, bar.description))))),
  );
}
