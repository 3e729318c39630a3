import { MAX_RANGE_DAYS, usageRangeProblem } from '../../../../shared/console/usage-range-problem.ts';
import { api, apiBlob } from '../api.ts';
import type { Key, UsageSummary } from '../api-types.ts';
import { barChart, columnChart } from '../charts.ts';
import { h, replaceChildren } from '../dom.ts';
import { formatCount, formatUsdNanos, sumExact, utcDay } from '../format.ts';
import { announce } from '../status.ts';
import { dataTable, field, timeCell } from '../table.ts';
import type { SectionContext } from './project-page.ts';

/** Usage over a range of UTC days: totals, cost by day and by model, the most expensive requests, a CSV. */
export async function renderUsageSection({ project, container }: SectionContext): Promise<void> {
  const base = `/projects/${encodeURIComponent(project.id)}`;
  const from = h('input', { id: 'usage-from', type: 'date', required: true, value: utcDay(29) });
  const to = h('input', { id: 'usage-to', type: 'date', required: true, value: utcDay(0) });
  const results = h('div', { class: 'usage-results', 'aria-live': 'polite' });
  const range = () => `from=${encodeURIComponent(from.value)}&to=${encodeURIComponent(to.value)}`;
  // The date pickers offer only days that make a valid range with the other end.
  const limitPickers = () => {
    to.min = from.value;
    to.max = from.value ? addDays(from.value, MAX_RANGE_DAYS - 1) : '';
    from.max = to.value;
    from.min = to.value ? addDays(to.value, 1 - MAX_RANGE_DAYS) : '';
  };
  for (const input of [from, to]) for (const event of ['input', 'change']) input.addEventListener(event, limitPickers);
  limitPickers();
  /** The range's fault said in place of the figures (which were for another range), or undefined. */
  const rangeProblem = () => {
    const problem = usageRangeProblem(from.value, to.value);
    if (problem) replaceChildren(results, problemNotice(problem));
    return problem;
  };

  // The names of the keys the person may see (owners: all; members: their own), read once for the section.
  const keyNames = api<{ keys: Key[] }>(`${base}/keys`).then(
    ({ keys }) => new Map(keys.map((key) => [key.id, key.name])),
    () => new Map<string, string>(),
  );

  let latest = 0;
  const load = async () => {
    if (rangeProblem()) return;
    const ticket = ++latest;
    replaceChildren(results, h('p', { class: 'muted' }, 'Loading usage…'));
    try {
      const [usage, names] = await Promise.all([api<UsageSummary>(`${base}/usage?${range()}`), keyNames]);
      // An answer for an older range, overtaken by a newer Show, is dropped.
      if (ticket === latest) showUsage(results, usage, names);
    } catch (error) {
      if (ticket === latest) replaceChildren(results, problemNotice(error instanceof Error ? error.message : String(error)));
    }
  };
  const download = async () => {
    if (rangeProblem()) return;
    const { blob, filename, truncated } = await apiBlob(`${base}/usage.csv?${range()}`);
    const url = URL.createObjectURL(blob);
    const link = h('a', { href: url, download: filename, hidden: true });
    document.body.append(link);
    link.click();
    link.remove();
    setTimeout(() => URL.revokeObjectURL(url), 10_000);
    // A file cut short must say so: its rows would otherwise pass for the whole range.
    if (truncated) announce(`Downloaded ${filename}: it holds only the ${truncated} of the range. Choose fewer days for the rest.`, 'error');
    else announce(`Downloaded ${filename}.`);
  };

  container.append(
    h(
      'form',
      {
        class: 'inline-form',
        // The range is checked here, to say its fault beside the form rather than in a bubble.
        novalidate: true,
        onsubmit: (event: Event) => {
          event.preventDefault();
          void load();
        },
      },
      field('From (UTC)', from),
      field('To (UTC)', to),
      h('button', { type: 'submit', class: 'primary' }, 'Show'),
      h('button', { type: 'button', class: 'quiet', onclick: () => void download() }, 'Download CSV'),
    ),
    results,
  );
  await load();
}

function problemNotice(message: string): HTMLElement {
  return h('p', { class: 'notice error', role: 'alert' }, message);
}

/** The UTC day `days` days after `day` (YYYY-MM-DD). */
function addDays(day: string, days: number): string {
  const time = Date.parse(`${day}T00:00:00Z`) + days * 86_400_000;
  return Number.isNaN(time) ? '' : new Date(time).toISOString().slice(0, 10);
}

function showUsage(results: HTMLElement, usage: UsageSummary, keyNames: ReadonlyMap<string, string>): void {
  const requests = usage.by_day.reduce((sum, day) => sum + day.requests, 0);
  // Tokens and nano-USD come as decimal text, exact beyond 2^53: summed as BigInt, never as numbers.
  const cost = sumExact(usage.by_day.map((day) => day.cost_nanos));
  const tokens = sumExact(usage.by_day.flatMap((day) => [day.prompt_tokens, day.completion_tokens]));
  if (requests === 0) {
    replaceChildren(results, h('p', { class: 'empty' }, `No usage between ${usage.from} and ${usage.to}. Usage files appear within seconds of a request locally, within a minute in AWS.`));
    return;
  }
  replaceChildren(
    results,
    h(
      'dl',
      { class: 'stats' },
      h('div', { class: 'stat' }, h('dt', {}, 'Requests'), h('dd', {}, formatCount(requests))),
      h('div', { class: 'stat' }, h('dt', {}, 'Cost'), h('dd', {}, formatUsdNanos(cost))),
      h('div', { class: 'stat' }, h('dt', {}, 'Tokens'), h('dd', {}, formatCount(tokens))),
    ),
    h(
      'div',
      { class: 'charts' },
      columnChart(
        'Cost by day',
        everyDay(usage.from, usage.to).map((day) => {
          const found = usage.by_day.find((entry) => entry.day === day);
          const cost = BigInt(found?.cost_nanos ?? 0);
          return { label: day.slice(5), value: cost, description: `${day}: ${formatUsdNanos(cost)} (${formatCount(found?.requests ?? 0)} requests)` };
        }),
        formatUsdNanos,
      ),
      barChart(
        'Cost by model',
        usage.by_model.map((model) => ({ label: model.model, value: BigInt(model.cost_nanos), description: `${model.model}: ${formatUsdNanos(model.cost_nanos)} (${formatCount(model.requests)} requests)` })),
        formatUsdNanos,
      ),
    ),
    h('h3', {}, 'Top requests by cost'),
    dataTable(
      'Top requests by cost',
      [
        { label: 'When', cell: (request) => timeCell(request.created_at) },
        { label: 'Request id', cell: (request) => h('code', {}, request.request_id) },
        { label: 'Model', cell: (request) => request.model },
        { label: 'Key', cell: (request) => keyCell(request.key_id, keyNames) },
        { label: 'Status', cell: (request) => (request.status === 'completed' ? String(request.http_status) : `${request.http_status} ${request.status}`) },
        { label: 'Tokens in/out', numeric: true, cell: (request) => `${formatCount(request.prompt_tokens)} / ${formatCount(request.completion_tokens)}` },
        { label: 'Latency', numeric: true, cell: (request) => `${formatCount(request.latency_ms)} ms` },
        { label: 'Cost', numeric: true, cell: (request) => formatUsdNanos(request.cost_nanos) },
      ],
      usage.top_requests,
      'No requests in this range.',
    ),
  );
}

/** A key by its name, its id below; by its id alone when the person may not see the key (another member's). */
function keyCell(keyId: string, keyNames: ReadonlyMap<string, string>): HTMLElement {
  const name = keyNames.get(keyId);
  if (name === undefined) return h('code', {}, keyId);
  return h('span', { class: 'key-name', title: keyId }, name, h('code', { class: 'secondary' }, keyId));
}

/** Every UTC day from `from` to `to`, both included: days without usage are drawn as empty columns. */
function everyDay(from: string, to: string): string[] {
  const days: string[] = [];
  for (let time = Date.parse(`${from}T00:00:00Z`); time <= Date.parse(`${to}T00:00:00Z`); time += 86_400_000) {
    days.push(new Date(time).toISOString().slice(0, 10));
  }
  return days;
}
