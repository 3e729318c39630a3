import { h, s } from './dom.ts';

export interface Bar {
  label: string;
  /** An exact amount (nano-USD, which outgrow 2^53): shown exactly, drawn as its share of the largest. */
  value: bigint;
  /** What a reader hears and a tooltip shows, e.g. "2025-03-01: $0.0042 (12 requests)". */
  description: string;
}

const INK = 'chart-bar';
/** Room for one label under the columns ("03-01" at the page's text size and a gap), in CSS pixels. */
const LABEL_SPACING = 52;
/** Space left and right of the columns, so the first and last labels, centred under them, are not cut. */
const SIDE = 22;

/**
 * A column chart (cost by day), drawn as inline SVG: no library, no inline style (the CSP forbids it).
 * Each column carries its description as a <title>; the figure's caption names the chart. The drawing is
 * made at the width it is shown at (one unit, one CSS pixel), so its text keeps the page's size on a phone
 * and on a wide screen; fewer days are labelled when they would not fit, counted back from the last one.
 */
export function columnChart(caption: string, bars: Bar[], formatValue: (value: bigint) => string): HTMLElement {
  const max = largest(bars);
  const draw = (width: number) => {
    const top = 28;
    const baseline = 190;
    const step = Math.max(width - 2 * SIDE, 1) / Math.max(bars.length, 1);
    const labelEvery = Math.ceil(LABEL_SPACING / step);
    return s(
      'svg',
      { viewBox: `0 0 ${width} ${baseline + 30}`, width, height: baseline + 30, role: 'img', 'aria-label': caption, class: 'chart-svg' },
      s('text', { x: 0, y: 16, class: 'chart-axis' }, `max ${formatValue(max)}`),
      s('line', { x1: 0, x2: width, y1: top, y2: top, class: 'chart-grid' }),
      s('line', { x1: 0, x2: width, y1: baseline + 0.5, y2: baseline + 0.5, class: 'chart-baseline' }),
      bars.map((bar, index) => {
        const height = max > 0n && bar.value > 0n ? Math.max(2, share(bar.value, max) * (baseline - top)) : 0;
        const x = SIDE + index * step + step * 0.15;
        return s(
          'g',
          {},
          s('rect', { x, y: baseline - height, width: step * 0.7, height, rx: 2, class: INK }, s('title', {}, bar.description)),
          (bars.length - 1 - index) % labelEvery === 0
            ? s('text', { x: x + step * 0.35, y: baseline + 20, 'text-anchor': 'middle', class: 'chart-label' }, bar.label)
            : null,
        );
      }),
    );
  };
  return h('figure', { class: 'chart' }, h('figcaption', {}, caption), drawnAtWidth(draw), numbersTable(caption, bars.filter((bar) => bar.value > 0n)));
}

/** A bar chart with one labelled row per item (cost by model), largest first as given; drawn at its shown width. */
export function barChart(caption: string, bars: Bar[], formatValue: (value: bigint) => string): HTMLElement {
  const max = largest(bars);
  const row = 30;
  const draw = (width: number) => {
    const labelWidth = Math.min(240, Math.round(width * 0.35));
    // Room after the longest bar for its value, an exact cost such as "$0.00009075".
    const barSpace = Math.max(20, width - labelWidth - 110);
    const maxChars = Math.max(4, Math.floor(labelWidth / 8));
    const height = bars.length * row + 6;
    return s(
      'svg',
      { viewBox: `0 0 ${width} ${height}`, width, height, role: 'img', 'aria-label': caption, class: 'chart-svg' },
      bars.map((bar, index) => {
        const y = index * row + 4;
        const barWidth = max > 0n ? Math.max(2, share(bar.value, max) * barSpace) : 0;
        return s(
          'g',
          {},
          s('text', { x: 0, y: y + 17, class: 'chart-label' }, bar.label.length > maxChars ? `${bar.label.slice(0, maxChars - 1)}…` : bar.label),
          s('rect', { x: labelWidth, y, width: barWidth, height: 22, rx: 3, class: INK }, s('title', {}, bar.description)),
          s('text', { x: labelWidth + barWidth + 8, y: y + 17, class: 'chart-value' }, formatValue(bar.value)),
        );
      }),
    );
  };
  return h('figure', { class: 'chart' }, h('figcaption', {}, caption), drawnAtWidth(draw), numbersTable(caption, bars));
}

/** The largest value, 0 when none is positive. */
function largest(bars: Bar[]): bigint {
  return bars.reduce((max, bar) => (bar.value > max ? bar.value : max), 0n);
}

/** A value's share of the largest, for drawing only: a pixel needs no more than a float's precision. */
function share(value: bigint, max: bigint): number {
  return Number(value) / Number(max);
}

/**
 * A slot that draws `draw(width)` at its own width in CSS pixels, and draws again when that width changes
 * (a turned phone, a resized window): what keeps a chart's text at the page's size.
 */
function drawnAtWidth(draw: (width: number) => SVGSVGElement): HTMLElement {
  const slot = h('div', { class: 'chart-drawing' });
  let drawnWidth = 0;
  new ResizeObserver(([entry]) => {
    const width = Math.floor(entry?.contentRect.width ?? 0);
    if (width <= 0 || width === drawnWidth) return;
    drawnWidth = width;
    slot.replaceChildren(draw(width));
  }).observe(slot);
  return slot;
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
