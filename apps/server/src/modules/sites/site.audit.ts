/** Projects, stations and clients' nodes, and their images, in the audit trail. */
import { ownerColumn } from '../../http/resource.ts';
import type { AuditSubject } from '../audit/audit-trail.ts';
import { tableSubject } from '../audit/table-subject.ts';
import { imageUrl } from './projects.repository.ts';

/** A node as the project calls show it (with its counts). */
export const projectSubject: AuditSubject = {
  kind: 'project',
  load: async (ctx, user, id) => {
    if (!user) return null;
    const { repository } = ctx.projects;
    const row = await repository.byId(user.groupId, Number(id));
    if (!row) return null;
    const [dto] = await repository.summarize(user.groupId, [row]);
    return dto ?? null;
  },
};

export const projectImageSubject = tableSubject(
  'projectImage',
  'project_images',
  (r) => ({ Id: r.id, ProjectId: r.project_id, url: imageUrl(String(r.storage_key)), Sn: r.sn }),
  ownerColumn('project', 'project_id'),
);
