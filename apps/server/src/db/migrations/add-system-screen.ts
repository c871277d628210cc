/**
 * For migrations that add a screen under System Configure: every existing group gets it at the
 * end of that menu (once), granted to the group's administrator roles, as new groups get it from
 * DEFAULT_MENUS.
 */
import { sql, type Kysely } from 'kysely';

export async function addSystemScreen(
  db: Kysely<unknown>,
  screen: { name: string; path: string; componentUrl: string },
): Promise<void> {
  const parents = await sql<{ id: number; group_id: number; last: number | string | null }>`
    SELECT p.id, p.group_id, (SELECT MAX(c.sn) FROM sys_menus c WHERE c.parent_id = p.id) AS last
    FROM sys_menus p WHERE p.parent_id = 0 AND p.name = 'System Configure'`.execute(db);
  const router = JSON.stringify({ path: screen.path, componentUrl: screen.componentUrl });
  for (const parent of parents.rows) {
    const present = await sql<{ id: number }>`
      SELECT id FROM sys_menus WHERE group_id = ${parent.group_id} AND url = ${screen.path}`.execute(db);
    if (present.rows.length > 0) continue;
    const inserted = await sql<{ id: number }>`
      INSERT INTO sys_menus (group_id, name, parent_id, url, router, menu_type, icon, remarks, sn)
      VALUES (${parent.group_id}, ${screen.name}, ${parent.id}, ${screen.path}, ${router}, 1, '', '', ${Number(parent.last ?? 0) + 1})
      RETURNING id`.execute(db);
    const menuId = inserted.rows[0]?.id;
    if (menuId === undefined) continue;
    await sql`INSERT INTO role_menus (role_id, menu_id)
      SELECT id, ${menuId} FROM roles WHERE group_id = ${parent.group_id} AND is_admin = 1`.execute(db);
  }
}
