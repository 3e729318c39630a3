import { describe, expect, it } from 'vitest';
import { parseRoute, projectHref } from '../../../../web/console/app/router.ts';

describe('the console page\'s routes', () => {
  it.each([
    ['', { page: 'projects' }],
    ['#/projects', { page: 'projects' }],
    ['#/projects/acme', { page: 'project', projectId: 'acme', section: 'overview' }],
    ['#/projects/acme/keys', { page: 'project', projectId: 'acme', section: 'keys' }],
    ['#/projects/acme/nonsense', { page: 'project', projectId: 'acme', section: 'overview' }],
    ['#/elsewhere', { page: 'projects' }],
    ['#/projects/%E0%A4%A/keys', { page: 'malformed', address: '#/projects/%E0%A4%A/keys' }],
  ])('reads %j as %j', (hash, route) => {
    expect(parseRoute(hash)).toEqual(route);
  });

  it('links to a section and back', () => {
    expect(projectHref('acme', 'usage')).toBe('#/projects/acme/usage');
    expect(projectHref('acme')).toBe('#/projects/acme');
    expect(parseRoute(projectHref('my_project', 'audit'))).toEqual({ page: 'project', projectId: 'my_project', section: 'audit' });
  });
});
