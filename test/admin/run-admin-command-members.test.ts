import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { START_TIME, startAdminHarness, type AdminHarness, type ProjectView } from './admin-harness.ts';
import { projectsOfMember } from '../../shared/admin/member-commands.ts';

interface MemberView {
  project_id: string;
  member: string;
  role: 'owner' | 'member';
  added_at: string;
}
interface MemberList {
  members: MemberView[];
  removed_members: string[];
}

describe('runAdminCommand: project members', () => {
  let admin: AdminHarness;

  beforeAll(async () => {
    admin = await startAdminHarness();
  });
  afterAll(async () => {
    await admin?.close();
  });

  it('adds a person as a member by default, in lower case, and lists the project\'s people by name', async () => {
    await admin.ok({ command: 'project.create', projectId: 'team' });

    const added = await admin.ok<MemberView>({ command: 'member.add', projectId: 'team', member: 'Zoe@Example.com' });
    await admin.ok({ command: 'member.add', projectId: 'team', member: 'alice@example.com', role: 'owner' });

    expect(added).toEqual({ project_id: 'team', member: 'zoe@example.com', role: 'member', added_at: START_TIME });
    expect(await admin.ok<MemberList>({ command: 'member.list', projectId: 'team' })).toEqual({
      members: [
        { project_id: 'team', member: 'alice@example.com', role: 'owner', added_at: START_TIME },
        { project_id: 'team', member: 'zoe@example.com', role: 'member', added_at: START_TIME },
      ],
      removed_members: [],
    });
  });

  it('changes the role of a member added again, keeping when they were first added', async () => {
    await admin.ok({ command: 'project.create', projectId: 'promotion' });
    await admin.ok({ command: 'member.add', projectId: 'promotion', member: 'bob@example.com' });
    admin.setTime('2025-03-03T00:00:00.000Z');
    try {
      const promoted = await admin.ok<MemberView>({ command: 'member.add', projectId: 'promotion', member: 'bob@example.com', role: 'owner' });
      expect(promoted).toMatchObject({ role: 'owner', added_at: START_TIME });
    } finally {
      admin.setTime(START_TIME);
    }
  });

  it("lists a person's projects with their names and roles", async () => {
    await admin.ok({ command: 'project.create', projectId: 'alpha', name: 'Alpha' });
    await admin.ok({ command: 'project.create', projectId: 'beta', name: 'Beta' });
    await admin.ok({ command: 'project.create', projectId: 'gamma', name: 'Gamma' });
    await admin.ok({ command: 'member.add', projectId: 'beta', member: 'carol@example.com', role: 'owner' });
    await admin.ok({ command: 'member.add', projectId: 'alpha', member: 'carol@example.com' });

    expect(await projectsOfMember(admin.services, 'carol@example.com')).toEqual([
      { id: 'alpha', name: 'Alpha', role: 'member' },
      { id: 'beta', name: 'Beta', role: 'owner' },
    ]);
    expect(await projectsOfMember(admin.services, 'nobody@example.com')).toEqual([]);
  });

  it('removes a member: their console access ends and their keys are refused until they are added again', async () => {
    await admin.ok({ command: 'project.create', projectId: 'leaving' });
    await admin.ok({ command: 'member.add', projectId: 'leaving', member: 'dan@example.com' });

    const project = await admin.ok<ProjectView>({ command: 'member.remove', projectId: 'leaving', member: 'dan@example.com' });

    expect(project.removed_members).toEqual(['dan@example.com']);
    expect(await admin.ok<MemberList>({ command: 'member.list', projectId: 'leaving' })).toEqual({ members: [], removed_members: ['dan@example.com'] });
    expect(await projectsOfMember(admin.services, 'dan@example.com')).toEqual([]);

    await admin.ok({ command: 'member.add', projectId: 'leaving', member: 'dan@example.com' });
    expect(await admin.ok<MemberList>({ command: 'member.list', projectId: 'leaving' })).toMatchObject({ removed_members: [] });
    expect((await admin.projects.loadProjectConfig('leaving'))?.project.removedMembers).toBeUndefined();
  });

  it('removes a key holder who never had console access (keys created with --member)', async () => {
    await admin.ok({ command: 'project.create', projectId: 'holders' });
    await admin.ok({ command: 'key.create', projectId: 'holders', member: 'ci-bot' });

    const project = await admin.ok<ProjectView>({ command: 'member.remove', projectId: 'holders', member: 'ci-bot' });
    expect(project.removed_members).toEqual(['ci-bot']);

    const restored = await admin.ok<ProjectView>({ command: 'member.restore', projectId: 'holders', member: 'ci-bot' });
    expect(restored.removed_members).toEqual([]);
    expect(await admin.ok<MemberList>({ command: 'member.list', projectId: 'holders' })).toEqual({ members: [], removed_members: [] });
  });

  it('refuses to remove someone who is neither a member nor holds a key (a mistyped name), and removes a removed member again', async () => {
    await admin.ok({ command: 'project.create', projectId: 'typos' });
    await admin.ok({ command: 'member.add', projectId: 'typos', member: 'alice@example.com' });

    const refused = await admin.refused({ command: 'member.remove', projectId: 'typos', member: 'alcie@example.com' });
    expect(refused).toMatchObject({ status: 404, code: 'member_not_found' });
    expect(refused.message).toContain('member list typos');
    expect(await admin.ok<MemberList>({ command: 'member.list', projectId: 'typos' })).toMatchObject({ removed_members: [] });

    await admin.ok({ command: 'member.remove', projectId: 'typos', member: 'alice@example.com' });
    const again = await admin.ok<ProjectView>({ command: 'member.remove', projectId: 'typos', member: 'alice@example.com' });
    expect(again.removed_members).toEqual(['alice@example.com']);
  });

  it('keeps the last owner of a project: neither removed nor demoted while no other owner exists', async () => {
    await admin.ok({ command: 'project.create', projectId: 'owned' });
    await admin.ok({ command: 'member.add', projectId: 'owned', member: 'erin@example.com', role: 'owner' });

    const removal = await admin.refused({ command: 'member.remove', projectId: 'owned', member: 'erin@example.com' });
    const demotion = await admin.refused({ command: 'member.add', projectId: 'owned', member: 'erin@example.com', role: 'member' });

    for (const refusal of [removal, demotion]) {
      expect(refusal).toEqual({ status: 409, code: 'last_owner', message: '"erin@example.com" is the last owner of "owned": add another owner first.' });
    }
    await admin.ok({ command: 'member.add', projectId: 'owned', member: 'frank@example.com', role: 'owner' });
    await admin.ok({ command: 'member.remove', projectId: 'owned', member: 'erin@example.com' });
    expect((await admin.ok<MemberList>({ command: 'member.list', projectId: 'owned' })).members.map((entry) => entry.member)).toEqual(['frank@example.com']);
  });

  it('refuses members of an unknown project and malformed member ids', async () => {
    expect(await admin.refused({ command: 'member.add', projectId: 'ghost', member: 'a@example.com' })).toMatchObject({ status: 404, code: 'project_not_found' });
    expect(await admin.refused({ command: 'member.list', projectId: 'ghost' })).toMatchObject({ status: 404, code: 'project_not_found' });
    await admin.ok({ command: 'project.create', projectId: 'strict' });
    expect(await admin.refused({ command: 'member.add', projectId: 'strict', member: 'two words' })).toMatchObject({ status: 400, code: 'invalid_command' });
    expect(await admin.refused({ command: 'member.add', projectId: 'strict', member: 'a@example.com', role: 'admin' })).toMatchObject({ status: 400 });
  });
});
