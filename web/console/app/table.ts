import { h, type Child } from './dom.ts';
import { formatTime } from './format.ts';

export interface Column<Row> {
  label: string;
  cell(row: Row): Child;
  /** Numbers align right. */
  numeric?: boolean;
}

const cellClass = (column: { numeric?: boolean }) => (column.numeric ? 'numeric' : undefined);

/** A data table with a caption (its accessible name) and a message when there are no rows. */
export function dataTable<Row>(caption: string, columns: Column<Row>[], rows: Row[], empty: string): HTMLElement {
  if (rows.length === 0) return h('p', { class: 'empty' }, empty);
  return h(
    'div',
    { class: 'table-scroll' },
    h(
      'table',
      {},
      h('caption', { class: 'visually-hidden' }, caption),
      h('thead', {}, h('tr', {}, columns.map((column) => h('th', { scope: 'col', class: cellClass(column) }, column.label)))),
      h('tbody', {}, rows.map((row) => h('tr', {}, columns.map((column) => h('td', { class: cellClass(column) }, column.cell(row)))))),
    ),
  );
}

/** A labelled form field; the label is tied to the control by id. */
export function field(label: string, control: HTMLInputElement | HTMLSelectElement, hint?: string): HTMLElement {
  const hintId = hint ? `${control.id}-hint` : undefined;
  if (hintId) control.setAttribute('aria-describedby', hintId);
  return h('div', { class: 'field' }, h('label', { for: control.id }, label), control, hint ? h('span', { id: hintId, class: 'hint' }, hint) : null);
}

/** A time in a cell: a <time> element that does not wrap. */
export function timeCell(iso: string | null | undefined): Child {
  return iso ? h('time', { datetime: iso }, formatTime(iso)) : '—';
}
