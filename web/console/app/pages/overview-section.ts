import { h } from '../dom.ts';
import { projectHref } from '../router.ts';
import type { SectionContext } from './project-page.ts';

/** The project at a glance: plan, spend, requests, balance, and what is configured. */
export function renderOverviewSection({ project, container }: SectionContext): void {
  const stat = (label: string, value: string, href?: string) =>
    h('div', { class: 'stat' }, h('dt', {}, label), h('dd', {}, href ? h('a', { href }, value) : value));
  container.append(
    h(
      'dl',
      { class: 'stats' },
      stat('Plan', project.plan),
      stat('Spent', `$${project.spent_usd}`, projectHref(project.id, 'usage')),
      stat('Requests', project.request_count.toLocaleString('en-US'), projectHref(project.id, 'usage')),
      stat('Balance', project.balance_usd === null ? 'postpaid' : `$${project.balance_usd}`),
      stat('Models', String(project.models.length), projectHref(project.id, 'models')),
      stat('Providers', String(project.providers.length), projectHref(project.id, 'providers')),
    ),
    h(
      'p',
      { class: 'muted' },
      project.role === 'owner'
        ? 'As an owner you manage this project: its keys, models, providers and members.'
        : 'As a member you can see this project and create, disable and revoke your own API keys.',
    ),
  );
}
