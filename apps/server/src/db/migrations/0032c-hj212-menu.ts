/**
 * The HJ 212 screen (/sys/hj212, issue 21): existing groups get it at the end of their System
 * Configure menu, granted to their administrator roles, as new groups do from DEFAULT_MENUS.
 */
import { sql, type Kysely } from 'kysely';

const SCREEN = { name: 'HJ 212', path: '/sys/hj212', componentUrl: 'sys/hj212' };

export const up = async (db: Kysely<unknown>) => {
  const parents = await sql<{ id: number; group_id: number; last: number | string | null }>`
    SELECT p.id, p.group_id, (SELECT MAX(c.sn) FROM sys_menus c WHERE c.parent_id = p.id) AS last
    FROM sys_menus p WHERE p.parent_id = 0 AND p.name = 'System Configure'`.execute(db);
  const router = JSON.stringify({ path: SCREEN.path, componentUrl: SCREEN.componentUrl });
  for (const parent of parents.rows) {
    const present = await sql<{ id: number }>`
      SELECT id FROM sys_menus WHERE group_id = ${parent.group_id} AND url = ${SCREEN.path}`.execute(db);
    if (present.rows.length > 0) continue;
    const inserted = await sql<{ id: number }>`
      INSERT INTO sys_menus (group_id, name, parent_id, url, router, menu_type, icon, remarks, sn)
      VALUES (${parent.group_id}, ${SCREEN.name}, ${parent.id}, ${SCREEN.path}, ${router}, 1, '', '', ${Number(parent.last ?? 0) + 1})
      RETURNING id`.execute(db);
    const menuId = inserted.rows[0]?.id;
    if (menuId === undefined) continue;
    await sql`INSERT INTO role_menus (role_id, menu_id)
      SELECT id, ${menuId} FROM roles WHERE group_id = ${parent.group_id} AND is_admin = 1`.execute(db);
  }
};
