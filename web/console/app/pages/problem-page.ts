import { h, replaceChildren } from '../dom.ts';

/**
 * A page that could not be shown (a project the person may not open, an address that is not one of the
 * console's), said in place of the page: never the previous page's content under the new address.
 */
export function renderProblemPage(main: HTMLElement, problem: { title: string; message: string; detail?: string; projectId?: string }): void {
  document.title = `${problem.title} · Model gateway console`;
  replaceChildren(
    main,
    h('nav', { class: 'breadcrumb', 'aria-label': 'Breadcrumb' }, h('a', { href: '#/projects' }, 'Projects'), problem.projectId ? [' / ', h('span', {}, problem.projectId)] : null),
    h('h1', {}, problem.title),
    h('section', { class: 'card problem' }, h('p', { class: 'notice error', role: 'alert' }, problem.message), problem.detail ? h('p', { class: 'muted' }, problem.detail) : null, h('p', {}, h('a', { href: '#/projects' }, 'Back to your projects'))),
  );
}
