import { ONE_HOUR_CACHE_WRITE_INPUT_MULTIPLE } from '../../../../shared/core/price-usage.ts';
import { api } from '../api.ts';
import type { Project } from '../api-types.ts';
import { describeCachePrices, describeLongContextPrices, type CachePrice } from '../cache-prices.ts';
import { confirmAction } from '../dialog.ts';
import { h, replaceChildren } from '../dom.ts';
import { formatPricePerMillion, MAX_PRICE_PER_MILLION, parsePricePerMillion } from '../format.ts';
import { announce } from '../status.ts';
import { dataTable, field } from '../table.ts';
import type { SectionContext } from './project-page.ts';

type Model = Project['models'][number];

/** The allowlist with aliases and prices (USD per million tokens); owners allow and remove models. */
export function renderModelsSection({ project, container }: SectionContext): void {
  const base = `/projects/${encodeURIComponent(project.id)}/models`;
  const listSlot = h('div');
  const owner = project.role === 'owner';

  const show = (models: Model[]) =>
    replaceChildren(
      listSlot,
      dataTable(
        'Models on the allowlist',
        [
          { label: 'Model', cell: (model) => h('code', {}, model.slug) },
          { label: 'Alias', cell: (model) => (model.alias ? h('code', {}, model.alias) : '—') },
          { label: 'Input / 1M', numeric: true, cell: (model) => priceCell(formatPricePerMillion(model.input_price_micros_per_1k), describeLongContextPrices(model)?.input) },
          { label: 'Output / 1M', numeric: true, cell: (model) => priceCell(formatPricePerMillion(model.output_price_micros_per_1k), describeLongContextPrices(model)?.output) },
          { label: 'Cached input / 1M', numeric: true, cell: (model) => cachePriceCell(describeCachePrices(model).cacheRead) },
          { label: 'Cache write 5 min / 1M', numeric: true, cell: (model) => cachePriceCell(describeCachePrices(model).cacheWrite) },
          { label: 'Cache write 1 h / 1M', numeric: true, cell: (model) => cachePriceCell(describeCachePrices(model).cacheWrite1h) },
          { label: 'Price from', cell: (model) => model.price_source },
          ...(owner ? [{ label: 'Actions', cell: (model: Model) => removeButton(model) }] : []),
        ],
        models,
        'No model is allowed yet: requests are refused until one is.',
      ),
    );

  const removeButton = (model: Model) =>
    h(
      'button',
      {
        type: 'button',
        class: 'danger small',
        'aria-label': `Remove ${model.slug} from the allowlist`,
        onclick: async () => {
          if (!(await confirmAction({ title: `Remove ${model.slug}?`, message: 'Requests for this model will be refused.', confirmLabel: 'Remove model' }))) return;
          const updated = await api<Project>(`${base}/remove`, { method: 'POST', body: { slug: model.slug } });
          announce(`${model.slug} is no longer allowed.`);
          show(updated.models);
        },
      },
      'Remove',
    );

  container.append(listSlot);
  show(project.models);
  if (owner) container.append(allowForm(base, show));
}

/** A cache price; one the rate card does not set is shown with the rule it is billed by. */
function cachePriceCell({ price, defaultRule }: CachePrice): HTMLElement | string {
  return priceCell(price, defaultRule);
}

/** A price, with a line beneath it saying more (the default billed instead, the long-context price) when there is one. */
function priceCell(price: string, note: string | undefined): HTMLElement | string {
  return note ? h('span', {}, price, h('span', { class: 'secondary' }, note)) : price;
}

function allowForm(base: string, show: (models: Model[]) => void): HTMLElement {
  const slug = h('input', { id: 'model-slug', required: true, placeholder: 'openai/gpt-4o-mini', autocomplete: 'off' });
  const alias = h('input', { id: 'model-alias', placeholder: 'fast', autocomplete: 'off' });
  const input = h('input', { id: 'model-input-price', inputmode: 'decimal', placeholder: '0.15' });
  const output = h('input', { id: 'model-output-price', inputmode: 'decimal', placeholder: '0.60' });
  // Optional: an empty one is not sent, so the price stays as it is (the gateway's default for a model that never had one).
  const cachedInput = h('input', { id: 'model-cached-input-price', inputmode: 'decimal', placeholder: '0.075' });
  const cacheWrite = h('input', { id: 'model-cache-write-price', inputmode: 'decimal', placeholder: '3.75' });
  const cacheWrite1h = h('input', { id: 'model-cache-write-1h-price', inputmode: 'decimal', placeholder: '6' });
  const priceControls = [
    ['inputMicrosPer1k', input],
    ['outputMicrosPer1k', output],
    ['cachedInputMicrosPer1k', cachedInput],
    ['cacheWriteInputMicrosPer1k', cacheWrite],
    ['cacheWrite1hInputMicrosPer1k', cacheWrite1h],
  ] as const;
  const form = h(
    'form',
    {
      class: 'grid-form four-per-row',
      onsubmit: async (event: Event) => {
        event.preventDefault();
        const prices: Record<string, number> = {};
        for (const [name, control] of priceControls) {
          if (control.value.trim() === '') continue;
          const micros = parsePricePerMillion(control.value);
          if (micros === undefined) {
            announce(`Prices are USD per million tokens, e.g. 0.15 (at most 3 decimals, at most ${MAX_PRICE_PER_MILLION.toLocaleString('en-US')}).`, 'error');
            control.focus();
            return;
          }
          prices[name] = micros;
        }
        const updated = await api<Project>(base, {
          method: 'POST',
          body: { slug: slug.value.trim(), ...(alias.value.trim() ? { alias: alias.value.trim() } : {}), ...prices },
        });
        announce(`${slug.value.trim()} is allowed.`);
        form.reset();
        show(updated.models);
      },
    },
    field('Model', slug, '<provider>/<model>'),
    field('Alias', alias, 'Optional'),
    field('Input price', input, 'USD per 1M tokens'),
    field('Output price', output, 'USD per 1M tokens'),
    field('Cached input price', cachedInput, 'USD per 1M; default: the input price'),
    field('Cache write price (5 min)', cacheWrite, 'USD per 1M; default: the input price'),
    field('Cache write price (1 h)', cacheWrite1h, `USD per 1M; default: ${ONE_HOUR_CACHE_WRITE_INPUT_MULTIPLE}× the input price`),
    h('button', { type: 'submit', class: 'primary' }, 'Allow model'),
  );
  return h('div', { class: 'card' }, h('h3', {}, 'Allow a model, or change its alias and prices'), form);
}
