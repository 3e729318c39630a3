import { api } from '../api.ts';
import type { Me } from '../api-types.ts';
import { h, replaceChildren } from '../dom.ts';
import { projectHref } from '../router.ts';

/** The projects the signed-in person belongs to, with their role in each. */
export async function renderProjectsPage(main: HTMLElement): Promise<void> {
  const me = await api<Me>('/me');
  document.title = 'Projects · Model gateway console';
  const list =
    me.projects.length === 0
      ? h(
          'div',
          { class: 'empty card' },
          h('p', {}, 'You are not a member of any project yet.'),
          h('p', { class: 'muted' }, 'An administrator adds you with ', h('code', {}, `npm run --silent admin -- member add <project> ${me.member} --role owner`), '.'),
        )
      : h(
          'ul',
          { class: 'project-list' },
          me.projects.map((project) =>
            h(
              'li',
              {},
              h('a', { class: 'project-card', href: projectHref(project.id) }, h('span', { class: 'project-name' }, project.name), h('span', { class: 'project-id' }, project.id), h('span', { class: `badge ${project.role}` }, project.role)),
            ),
          ),
        );
  replaceChildren(main, h('h1', {}, 'Projects'), list);
}
