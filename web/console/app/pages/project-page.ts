import { api } from '../api.ts';
import type { Project } from '../api-types.ts';
import { h, replaceChildren } from '../dom.ts';
import { projectHref, type ProjectSection, type Route } from '../router.ts';
import type { Session } from '../session.ts';
import { renderAuditSection } from './audit-section.ts';
import { renderKeysSection } from './keys-section.ts';
import { renderMembersSection } from './members-section.ts';
import { renderModelsSection } from './models-section.ts';
import { renderOverviewSection } from './overview-section.ts';
import { renderProvidersSection } from './providers-section.ts';
import { renderUsageSection } from './usage-section.ts';

export interface SectionContext {
  project: Project;
  session: Session;
  /** Where the section draws itself, under the project's header and tabs. */
  container: HTMLElement;
}

const sections: Record<ProjectSection, { title: string; ownersOnly?: boolean; render(context: SectionContext): Promise<void> | void }> = {
  overview: { title: 'Overview', render: renderOverviewSection },
  keys: { title: 'API keys', render: renderKeysSection },
  models: { title: 'Models', render: renderModelsSection },
  providers: { title: 'Providers', render: renderProvidersSection },
  usage: { title: 'Usage', render: renderUsageSection },
  members: { title: 'Members', render: renderMembersSection },
  audit: { title: 'Audit trail', ownersOnly: true, render: renderAuditSection },
};

/** A project: its name and the person's role, tabs for its sections, and the section asked for. */
export async function renderProjectPage(main: HTMLElement, route: Extract<Route, { page: 'project' }>, session: Session): Promise<void> {
  const project = await api<Project>(`/projects/${encodeURIComponent(route.projectId)}`);
  const current = sections[route.section].ownersOnly && project.role !== 'owner' ? 'overview' : route.section;
  document.title = `${sections[current].title} · ${project.name} · Model gateway console`;
  const tabs = h(
    'nav',
    { class: 'tabs', 'aria-label': 'Project sections' },
    h(
      'ul',
      {},
      (Object.keys(sections) as ProjectSection[])
        .filter((section) => !sections[section].ownersOnly || project.role === 'owner')
        .map((section) => h('li', {}, h('a', { href: projectHref(project.id, section), 'aria-current': section === current ? 'page' : undefined }, sections[section].title))),
    ),
  );
  const container = h('section', { class: 'section', 'aria-labelledby': 'section-title' }, h('h2', { id: 'section-title' }, sections[current].title));
  replaceChildren(
    main,
    h('nav', { class: 'breadcrumb', 'aria-label': 'Breadcrumb' }, h('a', { href: '#/projects' }, 'Projects'), ' / ', h('span', {}, project.id)),
    h('div', { class: 'project-header' }, h('h1', {}, project.name), h('span', { class: `badge ${project.role}` }, project.role)),
    tabs,
    container,
  );
  if (current !== route.section) container.append(h('p', { class: 'notice' }, `The ${sections[route.section].title.toLowerCase()} is for the project's owners: here is the overview.`));
  await sections[current].render({ project, session, container });
}
