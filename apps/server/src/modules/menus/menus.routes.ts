/** System menus and role menus (spec §7 Menus and clients, RoleSysMenu). */
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { addMenuRequest, menuDto, updateMenuRequest } from '@sluice/shared/menu.schema';
import { roleMenusRequest } from '@sluice/shared/role.schema';
import { currentUser } from '../../auth/access.ts';
import { AppError } from '../../http/errors.ts';
import { envelopeOf, ok } from '../../http/envelope.ts';
import { registerResource } from '../../http/resource.ts';
import { idRef } from '@sluice/shared/schema-fields';
import { fromBody } from '../audit/audit-trail.ts';
import { roleGrantsSubject } from '../roles/role.audit.ts';

const tags = ['Menus'];
const manage = { operate: 'menu.manage' } as const;
const id = idRef;

export function menusRoutes(root: FastifyInstance): void {
  const { menus, roles } = root.ctx;

  registerResource(root, {
    table: 'sys_menus',
    audit: { kind: 'menu' },
    tags,
    access: { read: manage, write: manage },
    dto: menuDto,
    create: addMenuRequest,
    update: updateMenuRequest,
    sortable: ['Name', 'Sn', 'ParentId'],
    searchable: ['Name', 'Url', 'Router', 'Remarks'],
    defaultOrder: { key: 'Sn', direction: 'asc' },
    routes: {
      list: 'GET /SysMenu',
      create: 'POST /SysMenu/AddMenu',
      update: 'PUT /SysMenu/UpdateSysMenu',
      remove: 'POST /SysMenu/DeleteSysMenu#Id',
    },
    beforeWrite: async (row, user) => {
      const router = row.router;
      const next = { ...row, router: router && typeof router === 'object' ? JSON.stringify(router) : '' };
      const parentId = Number(row.parent_id ?? 0);
      if (parentId !== 0 && (await menus.repository.menuType(parentId, user.groupId)) !== 0) {
        throw new AppError(400, 'menu.badParent', {}, 'ParentId');
      }
      return next;
    },
    beforeUpdate: (menuId, row) => {
      if (Number(row.parent_id) === menuId) return Promise.reject(new AppError(400, 'menu.badParent', {}, 'ParentId'));
      return Promise.resolve();
    },
    beforeRemove: async (_database, menu, user) => {
      if (await menus.repository.hasChildren(menu.Id, user.groupId)) throw new AppError(409, 'menu.hasChildren');
    },
  });

  const app = root.withTypeProvider<ZodTypeProvider>();
  const menuList = { 200: envelopeOf(z.array(menuDto)) };

  app.get(
    '/SysMenu/GetAllMenu',
    { config: { access: { operate: 'role.view' } }, schema: { tags, summary: "All of the group's menus", response: menuList } },
    async (request) => {
      const user = currentUser(request);
      return ok(request, await menus.groupMenus(user.groupId));
    },
  );

  app.get(
    '/SysMenu/GetTopLevelMenu',
    { config: { access: manage }, schema: { tags, summary: 'Top-level menus', response: menuList } },
    async (request) => {
      const user = currentUser(request);
      return ok(
        request,
        (await menus.groupMenus(user.groupId)).filter((m) => m.ParentId === 0),
      );
    },
  );

  app.get(
    '/SysMenu/GetSubMenu',
    {
      config: { access: 'session' },
      schema: {
        tags,
        summary: 'The sub-menus of a menu that the caller may see',
        querystring: z.object({ menuId: id }),
        response: menuList,
      },
    },
    async (request) => {
      const user = currentUser(request);
      return ok(
        request,
        (await menus.menusOf(user)).filter((m) => m.ParentId === request.query.menuId),
      );
    },
  );

  app.get(
    '/SysMenu/GetUserMenu',
    { config: { access: 'session' }, schema: { tags, summary: "The caller's menu, from their roles", response: menuList } },
    async (request) => {
      return ok(request, await menus.menusOf(currentUser(request)));
    },
  );

  app.get(
    '/RoleSysMenu/Get',
    {
      config: { access: { operate: 'role.view' }, legacyToken: true },
      schema: {
        tags,
        summary: 'The menus a role sees',
        querystring: z.looseObject({ roleId: id }),
        response: { 200: envelopeOf(z.array(z.number())) },
      },
    },
    async (request) => {
      const user = currentUser(request);
      if (!(await roles.allOwned('roles', [request.query.roleId], user.groupId))) throw new AppError(404, 'error.notFound');
      return ok(request, await menus.repository.ofRole(request.query.roleId));
    },
  );

  app.put(
    '/RoleSysMenu/AddOrUpdate',
    {
      config: {
        access: { operate: 'role.manage' },
        legacyToken: true,
        audit: { subject: roleGrantsSubject, action: 'update', id: fromBody('RoleId') },
      },
      schema: { tags, summary: 'Set the menus a role sees (the full set)', body: roleMenusRequest },
    },
    async (request) => {
      const user = currentUser(request);
      const { RoleId, MenuIds } = request.body;
      if (!(await roles.allOwned('roles', [RoleId], user.groupId))) throw new AppError(404, 'error.notFound');
      if (!(await roles.allOwned('sys_menus', MenuIds, user.groupId)))
        throw new AppError(400, 'ref.unknown', { what: 'menu', id: MenuIds.join(',') }, 'menu');
      await menus.repository.setOfRole(RoleId, MenuIds);
      return ok(request, null, { message: 'saved' });
    },
  );
}
