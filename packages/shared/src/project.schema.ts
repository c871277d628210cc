/**
 * Clients-as-nodes, projects and stations (spec §3 Project, Project image, affiliate,
 * principal; §7 Projects): one tree, client → project → station, in one table.
 */
import { z } from 'zod';
import { anyText, messageRef, optional, phone } from './rules.ts';
import { optionalPosition } from './geo.schema.ts';
import { areaCode } from './area.schema.ts';
import { idRef } from './schema-fields.ts';

/**
 * The one ProjectType numbering the API answers with (docs/decisions.md, "Project types").
 * Devices live in their own table; 2 is reserved for them.
 */
export const PROJECT_TYPE = { client: -1, project: 0, station: 1, device: 2 } as const;
export type ProjectKind = 'client' | 'project' | 'station';
export const KIND_OF_TYPE: Record<number, ProjectKind | undefined> = { [-1]: 'client', 0: 'project', 1: 'station' };

const NAMED_TYPES: Record<string, ProjectKind | 'device'> = {
  client: 'client',
  客户: 'client',
  project: 'project',
  项目: 'project',
  station: 'station',
  site: 'station',
  站点: 'station',
  device: 'device',
  设备: 'device',
};

/**
 * Reads a ProjectType as sent by any of the spec's readings:
 * -1 client; 0 project; 1 station under a parent, else a project (the reading where project is 1);
 * 2 station (the reading where station is 2; devices are never added as projects);
 * 3 and '101' device; names such as 'station' or '站点' too.
 */
export function readProjectType(raw: unknown, hasParent: boolean): ProjectKind | 'device' | undefined {
  if (typeof raw === 'string' && raw.trim() !== '' && !/^-?\d+$/.test(raw.trim())) {
    return NAMED_TYPES[raw.trim().toLowerCase()];
  }
  const code = typeof raw === 'number' ? raw : typeof raw === 'string' ? Number(raw) : Number.NaN;
  switch (code) {
    case -1:
      return 'client';
    case 0:
      return 'project';
    case 1:
      return hasParent ? 'station' : 'project';
    case 2:
      return 'station';
    case 3:
    case 101:
      return 'device';
    default:
      return undefined;
  }
}

const idField = idRef;
/** An optional reference: '', 0 and null mean none. */
const optionalRef = z.preprocess((v) => (v === '' || v === null || v === 0 || v === '0' ? undefined : v), idField.optional());
/** A reference that may be cleared: 0, '' or null clear it. */
const clearableRef = z.preprocess((v) => (v === '' || v === 0 || v === '0' ? null : v), idField.nullable().optional());

const projectFields = {
  Name: anyText(1, 64),
  ParentId: optionalRef,
  RegionId: optionalRef,
  ClientId: optionalRef,
  AreaId: z.preprocess((v) => (v === '' || v === null || v === 0 ? undefined : v), areaCode.optional()),
  Address: optional(anyText(0, 200)),
  Position: optionalPosition,
};

export const addProjectRequest = z
  .preprocess(
    (b) => {
      if (!b || typeof b !== 'object') return b;
      const v = b as Record<string, unknown>;
      return { ...v, Name: v.Name ?? v.ProjectName };
    },
    z.object({ ...projectFields, ProjectType: z.union([z.number(), z.string()]) }),
  )
  .transform((v, ctx) => {
    const kind = readProjectType(v.ProjectType, v.ParentId !== undefined);
    if (kind === undefined || kind === 'device') {
      ctx.addIssue({
        code: 'custom',
        path: ['ProjectType'],
        message: messageRef(kind === 'device' ? 'project.notDevice' : 'rule.projectType'),
      });
      return z.NEVER;
    }
    return { ...v, Kind: kind };
  });
export type AddProjectRequest = z.infer<typeof addProjectRequest>;

export const updateProjectRequest = z.preprocess(
  (b) => {
    if (!b || typeof b !== 'object') return b;
    const v = b as Record<string, unknown>;
    return { ...v, Name: v.Name ?? v.ProjectName };
  },
  z.object({
    Id: idField,
    Name: anyText(1, 64),
    ParentId: clearableRef,
    RegionId: clearableRef,
    ClientId: clearableRef,
    AreaId: z.preprocess((v) => (v === '' || v === 0 ? null : v), areaCode.nullable().optional()),
    Address: z.preprocess((v) => (v === null ? '' : v), anyText(0, 200).optional()),
    Position: z.preprocess((v) => (v === null ? '' : v), z.union([z.literal(''), optionalPosition])),
  }),
);
export type UpdateProjectRequest = z.infer<typeof updateProjectRequest>;

export const projectDto = z.object({
  Id: z.number(),
  Name: z.string(),
  /** The same as Name, as some screens read it. */
  ProjectName: z.string(),
  /** -1 client, 0 project, 1 station */
  ProjectType: z.number(),
  ProjectKind: z.enum(['client', 'project', 'station']),
  ParentId: z.number(),
  ParentName: z.string().nullable(),
  ClientId: z.number().nullable(),
  RegionId: z.number().nullable(),
  AreaId: z.string().nullable(),
  Address: z.string(),
  /** 'lng,lat' (GCJ-02), or '' */
  Position: z.string(),
  /** stations directly below */
  SitesNum: z.number(),
  /** projects directly below (a client's) */
  ProjectNum: z.number(),
  /** devices here and in every station below, recycle bin excluded */
  DeviceNum: z.number(),
  OnlineNum: z.number(),
  OfflineNum: z.number(),
  /** whether any device here is online */
  Online: z.boolean(),
  /** as a device's (spec §4): 2 when a device here is online with an active alarm, else 1 when one is online, else 0 */
  State: z.number(),
  /** devices here online with an active alarm */
  WarningNum: z.number(),
  /** when a device here was last heard (ms), or null */
  LastSeen: z.number().nullable(),
  /** the cover image's url (Sn 0, else the first image), or null */
  Image: z.string().nullable(),
  CreatedAt: z.number(),
});
export type ProjectDto = z.infer<typeof projectDto>;

export const projectInfoDto = projectDto.extend({ Child: z.array(projectDto) });
export type ProjectInfoDto = z.infer<typeof projectInfoDto>;

/** myProject and mySite answer a page in this shape (spec §7 Projects). */
export const projectPageDto = z.object({
  data: z.array(projectDto),
  count: z.number(),
  totalPage: z.number(),
  currentPage: z.number(),
  pageSize: z.number(),
});

/** A light entry of Project/FindUserProject. */
export const userProjectDto = z.object({ Id: z.number(), Name: z.string(), ProjectType: z.number(), ParentId: z.number() });

export const projectListQuery = z.preprocess(
  (q) => {
    if (!q || typeof q !== 'object') return q;
    const v = q as Record<string, unknown>;
    return { ...v, ParentId: v.ParentId ?? v.parentId ?? v.ProjectId ?? v.projectId, ClientId: v.ClientId ?? v.clientId };
  },
  z.object({
    ProjectType: z.preprocess((v) => (v === '' ? undefined : v), z.coerce.number().int().min(-1).max(1).optional()),
    ParentId: optionalRef,
    /** a client (spec §3 Client): its projects and their stations */
    ClientId: optionalRef,
    /** 1 online, 0 offline */
    Online: z.preprocess(
      (v) => (v === '' ? undefined : v === 'true' ? 1 : v === 'false' ? 0 : v),
      z.coerce.number().int().min(0).max(1).optional(),
    ),
  }),
);

export const projectImageDto = z.object({ Id: z.number(), ProjectId: z.number(), url: z.string(), Sn: z.number() });
export type ProjectImageDto = z.infer<typeof projectImageDto>;
export const PROJECT_IMAGE_LIMIT = 5 * 1024 * 1024;

export const affiliateDto = z.object({
  Id: z.number(),
  ProjectId: z.number(),
  AffiliateName: z.string(),
  AffiliateValue: z.string(),
});
export type AffiliateDto = z.infer<typeof affiliateDto>;
const affiliateFields = {
  AffiliateName: anyText(1, 64),
  AffiliateValue: z.preprocess((v) => (v === null ? '' : v), anyText(0, 500)),
};
export const addAffiliateRequest = z.object({ ProjectId: idField, ...affiliateFields });
export const updateAffiliateRequest = z.object({ Id: idField, ...affiliateFields });

export const principalDto = z.object({ Id: z.number(), Name: z.string(), Phone: z.string() });
export type PrincipalDto = z.infer<typeof principalDto>;
/** A person in charge: a name and a mobile number or a landline with its area code (spec §5). */
export const addPrincipalRequest = z.object({ Name: anyText(1, 32), Phone: phone });
export const updatePrincipalRequest = addPrincipalRequest.extend({ Id: idField.optional() });

/** GET {module}/roleproject/{roleId}: the role's projects; TypeId repeats Operate for the console. */
export const roleProjectDto = z.object({
  RoleId: z.number(),
  ProjectId: z.number(),
  ProjectName: z.string(),
  ProjectType: z.number(),
  /** 0 full (as the role's operates allow), 1 view only */
  Operate: z.number(),
  TypeId: z.number(),
});
export type RoleProjectDto = z.infer<typeof roleProjectDto>;
/** Grant operates: 0 lets the role's operates apply to the project, 1 makes it view-only. */
export const GRANT_OPERATE = { full: 0, viewOnly: 1 } as const;
