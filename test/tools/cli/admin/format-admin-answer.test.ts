import { describe, expect, it } from 'vitest';
import { formatAdminAnswer, renderTable } from '../../../../tools/cli/admin/format-admin-answer.ts';

describe('formatAdminAnswer', () => {
  it('prints JSON by default, indented', () => {
    expect(formatAdminAnswer({ id: 'acme', models: [] }, 'json')).toBe('{\n  "id": "acme",\n  "models": []\n}');
  });

  it('prints an answer that is one list as a table of its rows', () => {
    const answer = { keys: [{ id: 'key_1', name: 'laptop', rpm: null }, { id: 'key_22', name: 'ci', rpm: 60 }] };
    expect(formatAdminAnswer(answer, 'table')).toBe(['ID      NAME    RPM', 'key_1   laptop  -', 'key_22  ci      60'].join('\n'));
  });

  it('prints one object as field and value rows, nested fields dotted, and its lists of objects as tables below', () => {
    const answer = { id: 'acme', access_policy: { allowed_cidrs: ['10.0.0.0/8', '::1'] }, removed_members: [], providers: [{ provider: 'mock', has_api_key: false }] };
    expect(formatAdminAnswer(answer, 'table')).toBe(
      [
        'FIELD                        VALUE',
        'id                           acme',
        'access_policy.allowed_cidrs  10.0.0.0/8,::1',
        'removed_members              -',
        '',
        'providers:',
        'PROVIDER  HAS_API_KEY',
        'mock      false',
      ].join('\n'),
    );
  });

  it('says so when a list is empty', () => {
    expect(renderTable([])).toBe('(none)');
    expect(formatAdminAnswer({ projects: [] }, 'table')).toBe('(none)');
  });
});
