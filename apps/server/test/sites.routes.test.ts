import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import {
  createTestApp,
  databaseKinds,
  fieldsOf,
  multipartFile,
  EXE,
  PNG,
  type Body,
  type CreatedTenant,
  type TestApp,
} from './harness.ts';
import { buildPrincipal, buildRegion, buildSites, defaultRole, type SiteTree } from './factories.ts';

interface Area {
  AreaCode: string;
  AreaName: string;
  ParentCode: string;
  Level: number;
  Children?: Area[];
}
interface Project {
  Id: number;
  Name: string;
  ProjectType: number;
  ProjectKind: string;
  ParentId: number;
  ParentName: string | null;
  SitesNum: number;
  ProjectNum: number;
  DeviceNum: number;
  OnlineNum: number;
  OfflineNum: number;
  Online: boolean;
  Image: string | null;
  Position: string;
  Child?: Project[];
}
interface Page<T> {
  data: T[];
  count: number;
  totalPage: number;
  currentPage: number;
  pageSize: number;
}

/** Group 1's sites: a client node, two projects, four stations, ten devices (five online). */
const SITES: SiteTree = {
  client: '安吉县水务 Anji Water',
  projects: [
    {
      name: '青山镇 Qingshan Town',
      position: '119.6201,30.6083',
      stations: [
        {
          name: '青山一站 Qingshan No. 1',
          position: '119.6132,30.6147',
          devices: [
            { sn: 'SL0000000101', online: true },
            { sn: 'SL0000000102', online: true },
            { sn: 'SL0000000103', online: true },
          ],
        },
        {
          name: '竹林村站 Zhulin Village',
          position: '119.6078,30.5989',
          devices: [{ sn: 'SL0000000301' }, { sn: 'SL0000000302' }],
        },
      ],
    },
    {
      name: '河口村 Hekou Village',
      position: '119.6688,30.5842',
      stations: [
        {
          name: '河口村站 Hekou',
          position: '119.6652,30.5813',
          devices: [{ sn: 'SL0000000501', online: true }, { sn: 'SL0000000502' }, { sn: 'SL0000000503', online: true }],
        },
        { name: '上坞站 Shangwu', position: '119.6724,30.5871', devices: [{ sn: 'SL0000000601' }, { sn: 'SL0000000602' }] },
      ],
    },
  ],
};

describe.each(databaseKinds)('sites on %s', (kind) => {
  let t: TestApp;
  let admin: string;
  let operator: string;
  let otherAdmin: string;
  let other: CreatedTenant;
  let qingshan: Project;
  let hekou: Project;

  beforeAll(async () => {
    t = await createTestApp(kind);
    ({ admin, operator, other, otherAdmin } = await t.signInUsers());
    const db = t.app.ctx.db;
    const sites = await buildSites(t.app.ctx, {
      groupId: 1,
      tree: SITES,
      roles: [{ roleId: await defaultRole(db, 1, 'Operator') }],
    });
    for (const station of ['河口村站 Hekou', '上坞站 Shangwu']) {
      await buildPrincipal(db, { groupId: 1, projectId: sites.id(station), name: '张工 Zhang', phone: '13800138000' });
    }
    await buildRegion(db, { groupId: 1, name: '安吉南部片区 Anji South' });
    const projects = await t.json<Page<Project>>({ method: 'GET', url: '/api/1/project/myProject', token: admin });
    qingshan = projects.data.data.find((p) => p.Name.startsWith('青山镇')) ?? qingshan;
    hekou = projects.data.data.find((p) => p.Name.startsWith('河口村')) ?? hekou;
  });
  afterAll(async () => {
    await t.close();
  });

  describe('areas', () => {
    it('answers provinces, children, the whole tree and the chain of parents with official codes', async () => {
      const provinces = await t.json<Area[]>({ method: 'GET', url: '/api/Area/GetArea', token: operator });
      expect(provinces.data.length).toBeGreaterThanOrEqual(34);
      expect(provinces.data).toContainEqual({ AreaCode: '330000', AreaName: '浙江省', ParentCode: '86', Level: 1 });
      const cities = await t.json<Area[]>({ method: 'GET', url: '/api/Area/GetArea?areaCode=330000', token: operator });
      expect(cities.data.map((c) => c.AreaName)).toContain('湖州市');
      expect(cities.data.every((c) => c.Level === 2 && c.ParentCode === '330000')).toBe(true);
      const chain = await t.json<Area[]>({ method: 'GET', url: '/api/Area/GetParentArea?areaCode=330523', token: operator });
      expect(chain.data.map((a) => [a.AreaCode, a.AreaName, a.Level])).toEqual([
        ['330000', '浙江省', 1],
        ['330500', '湖州市', 2],
        ['330523', '安吉县', 3],
      ]);
      const tree = await t.call({ method: 'GET', url: '/api/Area/GetListArea', token: operator });
      expect(tree.headers['cache-control']).toContain('max-age');
      const zhejiang = tree.json<Body<Area[]>>().data.find((a) => a.AreaCode === '330000');
      const huzhou = zhejiang?.Children?.find((c) => c.AreaCode === '330500');
      expect(huzhou?.Children?.map((c) => c.AreaName)).toContain('安吉县');
      expect((await t.call({ method: 'GET', url: '/api/Area/GetParentArea?areaCode=999999', token: operator })).statusCode).toBe(
        404,
      );
      const bad = await t.call({ method: 'GET', url: '/api/Area/GetArea?areaCode=abc', token: operator });
      expect(bad.statusCode).toBe(400);
      expect(fieldsOf(bad)).toEqual(['areaCode']);
      expect((await t.call({ method: 'GET', url: '/api/Area/GetArea' })).statusCode).toBe(401);
    });
  });

  describe('regions', () => {
    it('adds, reads, edits and deletes a region, checking its shape, point and parent', async () => {
      const circle = { type: 'circle', center: [119.64, 30.6], radius: 1500 };
      const created = await t.call({
        method: 'POST',
        url: '/api/1/Region',
        token: admin,
        payload: { Name: '青山片区', Radius: JSON.stringify(circle), RegionCode: 'QS', Point: '119.64, 30.6' },
      });
      expect(created.statusCode).toBe(201);
      const region = created.json<Body<{ Id: number; Radius: string; Point: string; ParentId: number }>>().data;
      expect(JSON.parse(region.Radius)).toEqual(circle);
      expect(region.Point).toBe('119.64,30.6');
      expect(region.ParentId).toBe(0);

      const bad = await t.call({
        method: 'POST',
        url: '/api/1/Region',
        token: admin,
        lang: 'en-US',
        payload: { Name: 'x', Radius: '{"type":"circle","center":[500,30],"radius":10}', Point: '30.6' },
      });
      expect(bad.statusCode).toBe(400);
      expect(fieldsOf(bad).sort()).toEqual(['Point', 'Radius']);
      expect(bad.json<Body>().message).toContain('longitude,latitude');

      const polygon = {
        type: 'polygon',
        path: [
          [119.6, 30.6],
          [119.7, 30.6],
          [119.7, 30.7],
        ],
      };
      const child = await t.json<{ Id: number }>({
        method: 'POST',
        url: '/api/1/Region',
        token: admin,
        payload: { Name: '竹林', Radius: polygon, ParentId: region.Id },
      });
      const cycle = await t.call({
        method: 'PUT',
        url: '/api/1/Region',
        token: admin,
        payload: { Id: region.Id, Name: '青山片区', ParentId: child.data.Id },
      });
      expect(cycle.statusCode).toBe(400);
      expect(fieldsOf(cycle)).toEqual(['ParentId']);

      const rectangle = {
        type: 'rectangle',
        bounds: [
          [119.6, 30.5],
          [119.7, 30.6],
        ],
      };
      const edited = await t.call({
        method: 'PUT',
        url: '/api/1/Region',
        token: admin,
        payload: { Id: region.Id, Name: '青山片区 Qingshan', Radius: rectangle, Point: '119.65,30.55' },
      });
      expect(edited.statusCode).toBe(200);
      const read = await t.json<{ Name: string; Radius: string }>({
        method: 'GET',
        url: `/api/1/Region/${String(region.Id)}`,
        token: operator,
      });
      expect(read.data.Name).toBe('青山片区 Qingshan');
      expect(JSON.parse(read.data.Radius)).toEqual(rectangle);
      expect((await t.call({ method: 'DELETE', url: `/api/1/Region/${String(region.Id)}`, token: admin })).statusCode).toBe(409);
      expect((await t.call({ method: 'DELETE', url: `/api/1/Region/${String(child.data.Id)}`, token: admin })).statusCode).toBe(
        200,
      );
      expect((await t.call({ method: 'DELETE', url: `/api/1/Region/${String(region.Id)}`, token: admin })).statusCode).toBe(200);
      expect((await t.call({ method: 'POST', url: '/api/1/Region', token: operator, payload: { Name: 'x' } })).statusCode).toBe(
        403,
      );
      const all = await t.json<{ Name: string }[]>({ method: 'GET', url: '/api/1/Region', token: operator });
      expect(all.data.map((r) => r.Name)).toEqual(['安吉南部片区 Anji South']);
    });
  });

  describe('projects and stations', () => {
    it('lists the projects with station and device counts, online state, paged', async () => {
      expect(qingshan).toMatchObject({
        ProjectType: 0,
        ProjectKind: 'project',
        SitesNum: 2,
        DeviceNum: 5,
        OnlineNum: 3,
        OfflineNum: 2,
        Online: true,
      });
      expect(hekou).toMatchObject({ SitesNum: 2, DeviceNum: 5, OnlineNum: 2 });
      expect(qingshan.ParentName).toBe('安吉县水务 Anji Water');
      const sites = await t.json<Page<Project>>({ method: 'GET', url: '/api/1/project/mySite', token: operator });
      expect(sites.data).toMatchObject({ count: 4, totalPage: 1, currentPage: 1, pageSize: 10 });
      expect(sites.count).toBe(4);
      const page2 = await t.json<Page<Project>>({
        method: 'GET',
        url: '/api/1/project/mySite?PageNo=2&PageSize=3&OrderBy=Name&OrderType=asc',
        token: operator,
      });
      expect(page2.data).toMatchObject({ count: 4, totalPage: 2, currentPage: 2, pageSize: 3 });
      expect(page2.data.data).toHaveLength(1);
      const searched = await t.json<Page<Project>>({
        method: 'GET',
        url: `/api/1/project/mySite?Search=${encodeURIComponent('竹林')}`,
        token: operator,
      });
      expect(searched.data.data.map((s) => s.Name)).toEqual(['竹林村站 Zhulin Village']);
      expect(searched.data.data[0]).toMatchObject({
        ProjectType: 1,
        DeviceNum: 2,
        OnlineNum: 0,
        Online: false,
        ParentId: qingshan.Id,
      });
      const offline = await t.json<Page<Project>>({
        method: 'GET',
        url: `/api/1/project/mySite?Online=0&ParentId=${String(hekou.Id)}`,
        token: operator,
      });
      expect(offline.data.data.map((s) => s.Name)).toEqual(['上坞站 Shangwu']);
      const clients = await t.json<Project[]>({ method: 'GET', url: '/api/1/project?ProjectType=-1', token: admin });
      expect(clients.data.map((c) => [c.Name, c.ProjectNum, c.DeviceNum])).toEqual([['安吉县水务 Anji Water', 2, 10]]);
      // The client, its projects and their stations in one answer: each counted once, as alone.
      const everything = await t.json<Project[]>({ method: 'GET', url: '/api/1/project?PageSize=50', token: admin });
      const counts = new Map(everything.data.map((p) => [p.Name, p.DeviceNum]));
      expect(counts.get('安吉县水务 Anji Water')).toBe(10);
      expect(counts.get(qingshan.Name)).toBe(5);
      expect(counts.get(hekou.Name)).toBe(5);
    });

    it('answers a node with its children, and its children alone', async () => {
      const info = await t.json<Project>({ method: 'GET', url: `/api/1/project/info/${String(hekou.Id)}`, token: operator });
      expect(info.data.Child?.map((c) => c.Name).sort()).toEqual(['上坞站 Shangwu', '河口村站 Hekou']);
      const children = await t.json<Project[]>({
        method: 'GET',
        url: `/api/1/project/Child/${String(qingshan.Id)}`,
        token: operator,
      });
      expect(children.data).toHaveLength(2);
      expect(children.data.reduce((n, c) => n + c.DeviceNum, 0)).toBe(5);
      expect((await t.call({ method: 'GET', url: '/api/1/project/info/999999', token: operator })).statusCode).toBe(404);
    });

    it('adds projects and stations, reading the other ProjectType numberings, and keeps the tree in order', async () => {
      const project = await t.call({
        method: 'POST',
        url: '/api/1/project',
        token: admin,
        payload: { Name: '东坑村 Dongkeng', ProjectType: 0, Position: '119.70,30.60', AreaId: '330523' },
      });
      expect(project.statusCode).toBe(201);
      const p = project.json<Body<Project>>().data;
      expect(p).toMatchObject({ ProjectType: 0, ParentId: 0, DeviceNum: 0, SitesNum: 0, Image: null });
      // The reading where station is 2, and a name, are both a station under a project.
      const s1 = await t.json<Project>({
        method: 'POST',
        url: '/api/1/project',
        token: admin,
        payload: { Name: '东坑一站', ProjectType: 2, ParentId: p.Id, Position: '119.701,30.601' },
      });
      const s2 = await t.json<Project>({
        method: 'POST',
        url: '/api/1/project',
        token: admin,
        payload: { ProjectName: '东坑二站', ProjectType: 'site', ParentId: p.Id },
      });
      expect([s1.data.ProjectType, s2.data.ProjectType]).toEqual([1, 1]);
      // The reading where project is 1: 1 without a parent is a project.
      const alt = await t.json<Project>({
        method: 'POST',
        url: '/api/1/project',
        token: admin,
        payload: { Name: '旧读法项目', ProjectType: 1 },
      });
      expect(alt.data.ProjectType).toBe(0);
      const device = await t.call({
        method: 'POST',
        url: '/api/1/project',
        token: admin,
        lang: 'en-US',
        payload: { Name: 'x', ProjectType: 3, ParentId: s1.data.Id },
      });
      expect(device.statusCode).toBe(400);
      expect(device.json<Body>().message).toBe('ProjectType: Devices are added with the device call, not as projects');
      const under = await t.call({
        method: 'POST',
        url: '/api/1/project',
        token: admin,
        payload: { Name: 'x', ProjectType: 1, ParentId: s1.data.Id },
      });
      expect(under.statusCode).toBe(400);
      expect(fieldsOf(under)).toEqual(['ParentId']);
      const dup = await t.call({
        method: 'POST',
        url: '/api/1/project',
        token: admin,
        payload: { Name: '东坑一站', ProjectType: 1, ParentId: p.Id },
      });
      expect(dup.statusCode).toBe(409);
      const badPosition = await t.call({
        method: 'POST',
        url: '/api/1/project',
        token: admin,
        payload: { Name: 'y', ProjectType: 0, Position: '200,30', AreaId: '999999' },
      });
      expect(badPosition.statusCode).toBe(400);
      expect(fieldsOf(badPosition)).toEqual(['Position']);
      const badArea = await t.call({
        method: 'POST',
        url: '/api/1/project',
        token: admin,
        payload: { Name: 'y', ProjectType: 0, AreaId: '999999' },
      });
      expect(fieldsOf(badArea)).toEqual(['AreaId']);

      // Move a station to another project; a project may not go under a station or itself.
      const moved = await t.call({
        method: 'PUT',
        url: '/api/1/project',
        token: admin,
        payload: { Id: s2.data.Id, Name: '东坑二站', ParentId: alt.data.Id, Address: '东坑村' },
      });
      expect(moved.statusCode).toBe(200);
      expect(moved.json<Body<Project>>().data).toMatchObject({ ParentId: alt.data.Id, ParentName: '旧读法项目' });
      const loop = await t.call({
        method: 'PUT',
        url: '/api/1/project',
        token: admin,
        payload: { Id: p.Id, Name: '东坑村 Dongkeng', ParentId: s1.data.Id },
      });
      expect(loop.statusCode).toBe(400);

      // A node that still holds stations is not deleted; an empty one is.
      const refused = await t.call({ method: 'DELETE', url: `/api/1/project/${String(p.Id)}`, token: admin, lang: 'en-US' });
      expect(refused.statusCode).toBe(409);
      expect(refused.json<Body>().message).toBe(
        '“东坑村 Dongkeng” still holds 1 stations or projects and 0 devices; move or delete them first',
      );
      expect((await t.call({ method: 'DELETE', url: `/api/1/project/${String(s1.data.Id)}`, token: admin })).statusCode).toBe(
        200,
      );
      expect((await t.call({ method: 'DELETE', url: `/api/1/project/${String(p.Id)}`, token: admin })).statusCode).toBe(200);
      expect((await t.call({ method: 'GET', url: `/api/1/project/info/${String(p.Id)}`, token: admin })).statusCode).toBe(404);
      // Operators view but do not manage.
      expect(
        (await t.call({ method: 'POST', url: '/api/1/project', token: operator, payload: { Name: 'z', ProjectType: 0 } }))
          .statusCode,
      ).toBe(403);
    });

    it('refuses to delete a station that still has devices', async () => {
      const station = (await t.json<Project[]>({ method: 'GET', url: `/api/1/project/Child/${String(hekou.Id)}`, token: admin }))
        .data[0];
      const res = await t.call({ method: 'DELETE', url: `/api/1/project/${String(station?.Id)}`, token: admin, lang: 'zh-CN' });
      expect(res.statusCode).toBe(409);
      expect(res.json<Body>().message).toContain('台设备');
      // A project's refusal counts the devices of its stations too.
      const project = await t.call({ method: 'DELETE', url: `/api/1/project/${String(hekou.Id)}`, token: admin, lang: 'en-US' });
      expect(project.statusCode).toBe(409);
      expect(project.json<Body>().message).toBe(
        `“${hekou.Name}” still holds 2 stations or projects and 5 devices; move or delete them first`,
      );
    });

    it('gives projects and stations the state of their devices (warning, online, offline) and one project its own overview', async () => {
      const db = t.app.ctx.db;
      const [warn] = await db
        .insertInto('warns')
        .values({
          group_id: 1,
          device_sn: 'SL0000000101',
          project_id: null,
          code: 'E101',
          warn_type_id: null,
          description: 'Lift pump fault',
          dt: Date.now(),
          cleared_at: null,
          handled_at: null,
        })
        .returning('id')
        .execute();
      try {
        const projects = await t.json<Page<Project & { State: number; WarningNum: number; LastSeen: number | null }>>({
          method: 'GET',
          url: '/api/1/project/myProject',
          token: operator,
        });
        const byName = new Map(projects.data.data.map((p) => [p.Name, p]));
        expect(byName.get(qingshan.Name)).toMatchObject({ State: 2, WarningNum: 1 });
        expect(byName.get(hekou.Name)).toMatchObject({ State: 1, WarningNum: 0 });
        const stations = await t.json<Page<Project & { State: number; LastSeen: number | null }>>({
          method: 'GET',
          url: '/api/1/project/mySite?PageSize=10',
          token: operator,
        });
        const states = Object.fromEntries(stations.data.data.map((s) => [s.Name, s.State]));
        expect(states).toEqual({
          '青山一站 Qingshan No. 1': 2,
          '竹林村站 Zhulin Village': 0,
          '河口村站 Hekou': 1,
          '上坞站 Shangwu': 0,
        });
        const device = await t.json<{ State: number; Alarm: string | null }[]>({
          method: 'GET',
          url: '/api/1/Device/AllDevice?deviceSn=SL0000000101',
          token: operator,
        });
        expect(device.data[0]).toMatchObject({ State: 2, Alarm: 'Lift pump fault' });
        const calm = await t.json<{ State: number; Alarm: string | null }[]>({
          method: 'GET',
          url: '/api/1/Device/AllDevice?deviceSn=SL0000000102',
          token: operator,
        });
        expect(calm.data[0]).toMatchObject({ State: 1, Alarm: null });

        const overview = (id: number) =>
          t.json<{ Num: number; OnlineNum: number }>({
            method: 'GET',
            url: `/api/1/Device/OverView?ProjectId=${String(id)}`,
            token: operator,
          });
        expect((await overview(qingshan.Id)).data).toMatchObject({ Num: 5, OnlineNum: 3 });
        const shangwu = stations.data.data.find((s) => s.Name === '上坞站 Shangwu');
        expect((await overview(shangwu?.Id ?? 0)).data).toMatchObject({ Num: 2, OnlineNum: 0 });
        expect((await t.json<{ Num: number }>({ method: 'GET', url: '/api/1/Device/OverView', token: operator })).data.Num).toBe(
          10,
        );
        // Another tenant's administrator gets no overview of this project.
        const refused = await t.call({
          method: 'GET',
          url: `/api/1/Device/OverView?ProjectId=${String(qingshan.Id)}`,
          token: otherAdmin,
        });
        expect([403, 404]).toContain(refused.statusCode);
      } finally {
        await db
          .deleteFrom('warns')
          .where('id', '=', warn?.id ?? 0)
          .execute();
      }
    });
  });

  describe('images, affiliates and principals', () => {
    it('uploads a cover image, shows it on the project card, and deletes it with its file', async () => {
      const folder = path.join(t.dataDir, 'uploads', 'project-images');
      const first = await t.call({
        method: 'POST',
        url: `/api/1/${String(qingshan.Id)}/ProjectImage`,
        token: admin,
        ...multipartFile(PNG, 'cover.png', 'image/png'),
      });
      expect(first.statusCode).toBe(201);
      const cover = first.json<Body<{ Id: number; url: string; Sn: number }>>().data;
      expect(cover.Sn).toBe(0);
      const second = await t.json<{ Id: number; Sn: number }>({
        method: 'POST',
        url: `/api/1/${String(qingshan.Id)}/ProjectImage`,
        token: admin,
        ...multipartFile(PNG, 'b.png'),
      });
      expect(second.data.Sn).toBe(1);
      const file = await t.call({ method: 'GET', url: cover.url });
      expect(file.headers['content-type']).toBe('image/png');
      const list = await t.json<{ Id: number; Sn: number }[]>({
        method: 'GET',
        url: `/api/1/${String(qingshan.Id)}/ProjectImage`,
        token: operator,
      });
      expect(list.data.map((i) => [i.Id, i.Sn])).toEqual([
        [cover.Id, 0],
        [second.data.Id, 1],
      ]);
      // The second becomes the cover.
      const third = await t.json<{ Id: number; url: string; Sn: number }>({
        method: 'POST',
        url: `/api/1/${String(qingshan.Id)}/ProjectImage?Sn=0`,
        token: admin,
        ...multipartFile(PNG, 'c.png'),
      });
      expect(third.data.Sn).toBe(0);
      const card = (await t.json<Page<Project>>({ method: 'GET', url: '/api/1/project/myProject?Search=青山', token: operator }))
        .data.data[0];
      expect(card?.Image).toBe(third.data.url);
      expect(await readdir(folder)).toHaveLength(3);

      expect(
        (await t.call({ method: 'DELETE', url: `/api/1/${String(hekou.Id)}/ProjectImage/${String(cover.Id)}`, token: admin }))
          .statusCode,
      ).toBe(404);
      expect(
        (await t.call({ method: 'DELETE', url: `/api/1/${String(qingshan.Id)}/ProjectImage/${String(cover.Id)}`, token: admin }))
          .statusCode,
      ).toBe(200);
      expect(await readdir(folder)).toHaveLength(2);
      expect((await t.call({ method: 'GET', url: cover.url })).statusCode).toBe(404);
    });

    it('refuses a renamed executable (415) and an oversize image (413), storing nothing', async () => {
      const folder = path.join(t.dataDir, 'uploads', 'project-images');
      const before = await readdir(folder);
      const renamed = await t.call({
        method: 'POST',
        url: `/api/1/${String(hekou.Id)}/ProjectImage`,
        token: admin,
        lang: 'en-US',
        ...multipartFile(EXE, 'photo.jpg', 'image/jpeg'),
      });
      expect(renamed.statusCode).toBe(415);
      expect(renamed.json<Body>().message).toBe('Wrong file type: only png, jpeg, bmp are supported');
      const huge = Buffer.concat([PNG, Buffer.alloc(5 * 1024 * 1024)]);
      const oversize = await t.call({
        method: 'POST',
        url: `/api/1/${String(hekou.Id)}/ProjectImage`,
        token: admin,
        lang: 'en-US',
        ...multipartFile(huge, 'big.png', 'image/png'),
      });
      expect(oversize.statusCode).toBe(413);
      expect(oversize.json<Body>().message).toContain('5 MB');
      expect(
        (
          await t.call({
            method: 'POST',
            url: `/api/1/${String(hekou.Id)}/ProjectImage`,
            token: operator,
            ...multipartFile(PNG, 'a.png'),
          })
        ).statusCode,
      ).toBe(403);
      expect(await readdir(folder)).toEqual(before);
      const list = await t.json<unknown[]>({ method: 'GET', url: `/api/1/${String(hekou.Id)}/ProjectImage`, token: admin });
      expect(list.data).toEqual([]);
    });

    it('keeps affiliates of a project', async () => {
      const added = await t.call({
        method: 'POST',
        url: '/api/ProjectAffiliate',
        token: admin,
        payload: { ProjectId: hekou.Id, AffiliateName: '设计规模 Design capacity', AffiliateValue: '50 m³/d' },
      });
      expect(added.statusCode).toBe(201);
      const id = added.json<Body<{ Id: number }>>().data.Id;
      await t.call({
        method: 'POST',
        url: '/api/ProjectAffiliate',
        token: admin,
        payload: { ProjectId: hekou.Id, AffiliateName: '工艺 Process', AffiliateValue: 'A/O' },
      });
      await t.call({
        method: 'POST',
        url: '/api/ProjectAffiliate',
        token: admin,
        payload: { ProjectId: qingshan.Id, AffiliateName: '工艺 Process', AffiliateValue: 'MBR' },
      });
      const list = await t.json<{ AffiliateName: string; AffiliateValue: string }[]>({
        method: 'GET',
        url: `/api/ProjectAffiliate?ProjectId=${String(hekou.Id)}`,
        token: operator,
      });
      expect(list.data.map((a) => a.AffiliateValue)).toEqual(['50 m³/d', 'A/O']);
      const edited = await t.call({
        method: 'PUT',
        url: '/api/ProjectAffiliate',
        token: admin,
        payload: { Id: id, AffiliateName: '设计规模 Design capacity', AffiliateValue: '80 m³/d' },
      });
      expect(edited.json<Body<{ AffiliateValue: string }>>().data.AffiliateValue).toBe('80 m³/d');
      expect(
        (await t.call({ method: 'POST', url: '/api/ProjectAffiliate/Remove', token: admin, payload: { Id: id } })).statusCode,
      ).toBe(200);
      const after = await t.json<unknown[]>({
        method: 'GET',
        url: `/api/ProjectAffiliate?ProjectId=${String(hekou.Id)}`,
        token: operator,
      });
      expect(after.data).toHaveLength(1);
      expect((await t.call({ method: 'GET', url: '/api/ProjectAffiliate', token: operator })).statusCode).toBe(400);
    });

    it('keeps principals of a station, with a mobile or landline on Phone', async () => {
      const station = (await t.json<Project[]>({ method: 'GET', url: `/api/1/project/Child/${String(hekou.Id)}`, token: admin }))
        .data[0];
      const base = `/api/station/${String(station?.Id)}/ProjectPrincipals`;
      const listed = await t.json<{ Name: string; Phone: string }[]>({ method: 'GET', url: base, token: operator });
      expect(listed.data).toEqual([expect.objectContaining({ Name: '张工 Zhang', Phone: '13800138000' })]);
      const bad = await t.call({
        method: 'POST',
        url: base,
        token: admin,
        lang: 'en-US',
        payload: { Name: '李工', Phone: '12345678901' },
      });
      expect(bad.statusCode).toBe(400);
      expect(bad.json<Body>().message).toBe('Phone: Enter a mobile number or a landline (area code-number)');
      const office = await t.json<{ Id: number; Phone: string }>({
        method: 'POST',
        url: base,
        token: admin,
        payload: { Name: '站房', Phone: '0572-5123456' },
      });
      expect(office.data.Phone).toBe('0572-5123456');
      expect((await t.call({ method: 'DELETE', url: `${base}/${String(office.data.Id)}`, token: admin })).statusCode).toBe(200);
      const added = await t.json<{ Id: number }>({
        method: 'POST',
        url: base,
        token: admin,
        payload: { Name: '李工 Li', Phone: '13912345678' },
      });
      const edited = await t.json<{ Phone: string }>({
        method: 'PUT',
        url: `${base}/${String(added.data.Id)}`,
        token: admin,
        payload: { Name: '李工 Li', Phone: '15912345678' },
      });
      expect(edited.data.Phone).toBe('15912345678');
      // Reached through another station's path, the principal is not found.
      const wrongParent = await t.call({
        method: 'DELETE',
        url: `/api/project/${String(hekou.Id)}/ProjectPrincipals/${String(added.data.Id)}`,
        token: admin,
      });
      expect(wrongParent.statusCode).toBe(404);
      expect((await t.call({ method: 'DELETE', url: `${base}/${String(added.data.Id)}`, token: admin })).statusCode).toBe(200);
      expect((await t.json<unknown[]>({ method: 'GET', url: base, token: admin })).data).toHaveLength(1);
      expect(
        (await t.call({ method: 'GET', url: `/api/shop/${String(station?.Id)}/ProjectPrincipals`, token: admin })).statusCode,
      ).toBe(400);
      expect(
        (
          await t.call({
            method: 'GET',
            url: `/api/${String(other.groupId)}/${String(station?.Id)}/ProjectPrincipals`,
            token: admin,
          })
        ).statusCode,
      ).toBe(403);
    });
  });

  describe('another group', () => {
    it("refuses another group's projects, regions, images, affiliates, principals and grants, and changes nothing", async () => {
      const g = String(other.groupId);
      const mine = String(1);
      const station = (await t.json<Project[]>({ method: 'GET', url: `/api/1/project/Child/${String(hekou.Id)}`, token: admin }))
        .data[0];
      const attempts = [
        { method: 'GET', url: `/api/${mine}/project` },
        { method: 'GET', url: `/api/${mine}/project/mySite` },
        { method: 'GET', url: `/api/${g}/project/info/${String(hekou.Id)}` },
        { method: 'GET', url: `/api/${g}/project/Child/${String(hekou.Id)}` },
        { method: 'PUT', url: `/api/${g}/project`, payload: { Id: hekou.Id, Name: 'Hijacked' } },
        { method: 'DELETE', url: `/api/${g}/project/${String(station?.Id)}` },
        { method: 'POST', url: `/api/${g}/project`, payload: { Name: 'Inside', ProjectType: 1, ParentId: hekou.Id } },
        { method: 'GET', url: `/api/${mine}/Region` },
        { method: 'GET', url: `/api/${g}/${String(hekou.Id)}/ProjectImage` },
        {
          method: 'POST',
          url: '/api/ProjectAffiliate',
          payload: { ProjectId: hekou.Id, AffiliateName: 'x', AffiliateValue: 'y' },
        },
        { method: 'GET', url: `/api/ProjectAffiliate?ProjectId=${String(hekou.Id)}` },
        { method: 'GET', url: `/api/station/${String(station?.Id)}/ProjectPrincipals` },
        {
          method: 'POST',
          url: `/api/station/${String(station?.Id)}/ProjectPrincipals`,
          payload: { Name: 'x', Phone: '13912345678' },
        },
        { method: 'GET', url: `/api/${g}/roleproject/2` },
        {
          method: 'POST',
          url: `/api/${g}/roleproject`,
          payload: { RoleId: other.operatorRoleId, Projects: [{ ProjectId: hekou.Id, Operate: 0 }] },
        },
      ] as const;
      for (const attempt of attempts) {
        const res = await t.call({ ...attempt, token: otherAdmin });
        expect([400, 403, 404], `${attempt.method} ${attempt.url}: ${res.body}`).toContain(res.statusCode);
        expect(res.json<Body>().success).toBe(false);
      }
      const theirs = await t.json<Project[]>({ method: 'GET', url: `/api/${g}/project`, token: otherAdmin });
      expect(theirs.data).toEqual([]);
      const after = await t.json<Project>({ method: 'GET', url: `/api/1/project/info/${String(hekou.Id)}`, token: admin });
      expect(after.data).toMatchObject({ Name: hekou.Name, SitesNum: 2 });
      expect(after.data.Child?.map((c) => c.Name).sort()).toEqual(['上坞站 Shangwu', '河口村站 Hekou']);
    });
  });

  describe('role-project grants', () => {
    it('lets an operator reach only the projects granted to their role, and what is below them', async () => {
      const roles = await t.json<{ Id: number; Name: string }[]>({
        method: 'GET',
        url: '/api/group/1/Role/AllRoles',
        token: admin,
      });
      const operatorRole = roles.data.find((r) => r.Name === 'Operator')?.Id ?? 0;
      const before = await t.json<{ ProjectId: number; Operate: number }[]>({
        method: 'GET',
        url: `/api/1/roleproject/${String(operatorRole)}`,
        token: admin,
      });
      expect(before.data.map((g) => g.ProjectId).sort()).toEqual([qingshan.Id, hekou.Id].sort());

      const saved = await t.call({
        method: 'POST',
        url: '/api/api/roleproject',
        token: admin,
        payload: { RoleId: operatorRole, Projects: [{ ProjectId: hekou.Id, Operate: 0 }] },
      });
      expect(saved.statusCode).toBe(200);
      const granted = await t.json<{ ProjectId: number; ProjectName: string; TypeId: number }[]>({
        method: 'GET',
        url: `/api/1/roleproject/${String(operatorRole)}`,
        token: admin,
      });
      expect(granted.data).toEqual([expect.objectContaining({ ProjectId: hekou.Id, ProjectName: hekou.Name, TypeId: 0 })]);

      const projects = await t.json<Page<Project>>({ method: 'GET', url: '/api/1/project/myProject', token: operator });
      expect(projects.data.data.map((p) => p.Id)).toEqual([hekou.Id]);
      const sites = await t.json<Page<Project>>({ method: 'GET', url: '/api/1/project/mySite', token: operator });
      expect(sites.data.data.map((s) => s.ParentId)).toEqual([hekou.Id, hekou.Id]);
      const qsStations = await t.json<Project[]>({
        method: 'GET',
        url: `/api/1/project/Child/${String(qingshan.Id)}`,
        token: admin,
      });
      const qsStation = qsStations.data[0]?.Id ?? 0;
      for (const url of [
        `/api/1/project/info/${String(qingshan.Id)}`,
        `/api/1/project/Child/${String(qingshan.Id)}`,
        `/api/1/project/info/${String(qsStation)}`,
        `/api/1/${String(qingshan.Id)}/ProjectImage`,
        `/api/ProjectAffiliate?ProjectId=${String(qingshan.Id)}`,
        `/api/station/${String(qsStation)}/ProjectPrincipals`,
        `/api/1/Device/AllDevice?ProjectId=${String(qingshan.Id)}`,
        `/api/1/Device/AllDevice?deviceSn=SL0000000101`,
        `/api/1/SL0000000101/DeviceMigration`,
        `/api/api/Device/CheckDeviceControl/SL0000000101`,
      ]) {
        const res = await t.call({ method: 'GET', url, token: operator });
        if (url.includes('AllDevice?deviceSn')) {
          expect(res.json<Body<unknown[]>>().data, url).toEqual([]);
        } else {
          expect(res.statusCode, url).toBe(404);
        }
      }
      const devices = await t.json<{ DeviceSn: string; ParentProjectId: number }[]>({
        method: 'GET',
        url: '/api/1/Device/MyDevice?PageSize=100',
        token: operator,
      });
      expect(devices.count).toBe(5);
      expect(devices.data.every((d) => d.ParentProjectId === hekou.Id)).toBe(true);
      const overview = await t.json<{ Num: number }>({ method: 'GET', url: '/api/1/Device/OverView', token: operator });
      expect(overview.data.Num).toBe(5);
      const map = await t.json<{ Devices: unknown[][]; Stations: unknown[][] }>({
        method: 'GET',
        url: '/api/DeviceMap/GetDeviceMap',
        token: operator,
      });
      expect(map.data.Devices).toHaveLength(5);
      expect(map.data.Stations).toHaveLength(2);
      const mine = await t.json<{ Id: number }[]>({ method: 'GET', url: '/api/Project/FindUserProject', token: operator });
      expect(mine.data).toHaveLength(3);
      // An administrator may look at what another user reaches; an operator may not.
      const users = await t.json<{ Id: number; Account: string }[]>({
        method: 'GET',
        url: '/api/user?Search=operator',
        token: admin,
      });
      const operatorId = users.data.find((u) => u.Account === 'operator')?.Id ?? 0;
      const theirs = await t.json<{ Id: number }[]>({
        method: 'GET',
        url: `/api/Project/FindUserProject?UserId=${String(operatorId)}`,
        token: admin,
      });
      expect(theirs.data).toHaveLength(3);
      expect((await t.call({ method: 'GET', url: '/api/Project/FindUserProject?UserId=1', token: operator })).statusCode).toBe(
        403,
      );

      // A view-only grant lets the operator look but not control.
      await t.call({
        method: 'POST',
        url: '/api/1/roleproject',
        token: admin,
        payload: { RoleId: operatorRole, Projects: [{ ProjectId: hekou.Id, Operate: 1 }] },
      });
      const check = await t.json<{ CanControl: boolean }>({
        method: 'GET',
        url: '/api/1/Device/CheckDeviceControl/SL0000000501',
        token: operator,
      });
      expect(check.data.CanControl).toBe(false);
      await t.call({
        method: 'POST',
        url: '/api/1/roleproject',
        token: admin,
        payload: { RoleId: operatorRole, Projects: [{ ProjectId: hekou.Id, Operate: 0 }] },
      });
      const full = await t.json<{ CanControl: boolean }>({
        method: 'GET',
        url: '/api/1/Device/CheckDeviceControl/SL0000000501',
        token: operator,
      });
      expect(full.data.CanControl).toBe(true);

      // Grants name projects of the caller's group, and only role managers set them.
      const foreign = await t.call({
        method: 'POST',
        url: '/api/1/roleproject',
        token: otherAdmin,
        payload: { RoleId: other.operatorRoleId, Projects: [{ ProjectId: hekou.Id, Operate: 0 }] },
      });
      expect(foreign.statusCode).toBe(403);
      const foreignOwn = await t.call({
        method: 'POST',
        url: '/api/x/roleproject',
        token: otherAdmin,
        payload: { RoleId: other.operatorRoleId, Projects: [{ ProjectId: hekou.Id, Operate: 0 }] },
      });
      expect(foreignOwn.statusCode).toBe(400);
      expect(fieldsOf(foreignOwn)).toEqual(['Projects']);
      expect(
        (
          await t.call({
            method: 'POST',
            url: '/api/1/roleproject',
            token: operator,
            payload: { RoleId: operatorRole, Projects: [] },
          })
        ).statusCode,
      ).toBe(403);

      // The spec's single-grant body grants one project (or changes its operate) and keeps the others.
      const single = await t.call({
        method: 'POST',
        url: '/api/1/roleproject',
        token: admin,
        payload: { RoleId: operatorRole, ProjectId: qingshan.Id, Operate: 1 },
      });
      expect(single.statusCode).toBe(200);
      const both = await t.json<{ ProjectId: number; TypeId: number }[]>({
        method: 'GET',
        url: `/api/1/roleproject/${String(operatorRole)}`,
        token: admin,
      });
      expect(Object.fromEntries(both.data.map((g) => [g.ProjectId, g.TypeId]))).toEqual({ [hekou.Id]: 0, [qingshan.Id]: 1 });
      await t.call({
        method: 'POST',
        url: '/api/1/roleproject',
        token: admin,
        payload: { roleId: operatorRole, projectId: qingshan.Id, operate: 0 },
      });
      const changed = await t.json<{ ProjectId: number; TypeId: number }[]>({
        method: 'GET',
        url: `/api/1/roleproject/${String(operatorRole)}`,
        token: admin,
      });
      expect(changed.data.find((g) => g.ProjectId === qingshan.Id)?.TypeId).toBe(0);
      expect(changed.data).toHaveLength(2);
      // Refused: another group's project, neither or both of ProjectId and Projects, a caller who may not manage roles.
      const foreignOne = await t.call({
        method: 'POST',
        url: '/api/x/roleproject',
        token: otherAdmin,
        payload: { RoleId: other.operatorRoleId, ProjectId: hekou.Id },
      });
      expect(foreignOne.statusCode).toBe(400);
      expect(fieldsOf(foreignOne)).toEqual(['ProjectId']);
      for (const payload of [{ RoleId: operatorRole }, { RoleId: operatorRole, ProjectId: hekou.Id, Projects: [] }]) {
        const bad = await t.call({ method: 'POST', url: '/api/1/roleproject', token: admin, payload });
        expect(bad.statusCode).toBe(400);
        expect(fieldsOf(bad)).toEqual(['ProjectId']);
      }
      expect(
        (
          await t.call({
            method: 'POST',
            url: '/api/1/roleproject',
            token: operator,
            payload: { RoleId: operatorRole, ProjectId: hekou.Id },
          })
        ).statusCode,
      ).toBe(403);
      expect(
        (await t.json<unknown[]>({ method: 'GET', url: `/api/1/roleproject/${String(operatorRole)}`, token: admin })).data,
      ).toHaveLength(2);

      // Restore the demo grants for the other suites.
      await t.call({
        method: 'POST',
        url: '/api/1/roleproject',
        token: admin,
        payload: { RoleId: operatorRole, Projects: [{ ProjectId: hekou.Id }, { ProjectId: qingshan.Id }] },
      });
      expect((await t.json<Page<Project>>({ method: 'GET', url: '/api/1/project/myProject', token: operator })).data.count).toBe(
        2,
      );
    });
  });
});
