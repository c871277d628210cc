/**
 * The rules of templates: a part names a template of the group, and a panel or accessory of the
 * same template; a type has one standard template at most (making one standard makes the others
 * not); a template is read with all of its parts.
 */
import { fullTemplateDto, type FullTemplateDto } from '@sluice/shared/device-template.schema';
import { idRef } from '@sluice/shared/schema-fields';
import { AppError } from '../../http/errors.ts';
import type { CurrentUser } from '../../auth/current-user.ts';
import type { TypeScope } from '../device-types/type-scope.ts';
import type { TemplatesRepository } from './templates.repository.ts';

type Row = Record<string, unknown>;

export class TemplatesService {
  readonly repository: TemplatesRepository;
  private readonly typeScope: TypeScope;

  constructor(deps: { repository: TemplatesRepository; typeScope: TypeScope }) {
    this.repository = deps.repository;
    this.typeScope = deps.typeScope;
  }

  /** The template a part names (TempId) must be the group's. */
  async ownTemplate(raw: unknown, user: CurrentUser): Promise<number> {
    const id = idRef.safeParse(raw);
    const own = id.success ? await this.repository.ownId(id.data, user.groupId) : undefined;
    if (own === undefined) throw new AppError(400, 'ref.unknown', { what: 'TempId', id: String(raw) }, 'TempId');
    return own;
  }

  /** A part of the same template (a panel, an accessory) that another part refers to. */
  async sameTemplate(
    table: 'template_panels' | 'template_accessories',
    id: unknown,
    tempId: number,
    field: string,
    what: string,
  ): Promise<void> {
    if (id === undefined || id === null) return;
    if ((await this.repository.templateOf(table, Number(id))) !== tempId)
      throw new AppError(400, 'template.partOfOther', { what }, field);
  }

  /** A template's type must be the group's; only one standard template per type. */
  async beforeWrite(row: Row, user: CurrentUser): Promise<Row> {
    if (row.type_id !== undefined)
      await this.typeScope.ownType(row.type_id, user.groupId).catch(() => {
        throw new AppError(400, 'ref.unknown', { what: 'TypeId', id: String(row.type_id) }, 'TypeId');
      });
    if (row.is_standard === 1 && row.type_id !== undefined)
      await this.repository.clearStandard(user.groupId, Number(row.type_id));
    return row;
  }

  /** A template and its parts, each part list in its order. */
  async full(groupId: number, id: number): Promise<FullTemplateDto> {
    const t = await this.repository.one(id, groupId);
    if (!t) throw new AppError(404, 'error.notFound');
    const { profiles, panels, args, accessories, controls, configs } = await this.repository.parts(id);
    return fullTemplateDto.parse({
      Id: t.id,
      TypeId: t.type_id,
      TempName: t.temp_name,
      IsStandard: t.is_standard === 1,
      DeviceSn: t.device_sn,
      Profiles: profiles.map((p) => ({
        Id: p.id,
        TempId: p.temp_id,
        PanelId: p.panel_id,
        DataType: p.data_type,
        DataKey: p.data_key,
        DisplayKey: p.display_key,
        DataName: p.data_name,
        Unit: p.unit,
        DefaultValue: p.default_value,
        Format: p.format,
        AutoControl: p.auto_control === 1,
      })),
      Panels: panels.map((p) => ({
        Id: p.id,
        TempId: p.temp_id,
        PanelTypeId: p.panel_type_id,
        PanelName: p.panel_name,
        Sn: p.sn,
      })),
      Args: args.map((a) => ({
        Id: a.id,
        TempId: a.temp_id,
        DataName: a.data_name,
        DataType: a.data_type,
        DataValue: a.data_value,
      })),
      Accessories: accessories.map((a) => ({ Id: a.id, TempId: a.temp_id, Name: a.name, ICON: a.icon })),
      ControlData: controls.map((c) => ({
        Id: c.id,
        TempId: c.temp_id,
        ControlName: c.control_name,
        DataValue: c.data_value,
        DataDefineKey: c.data_define_key,
        AssociateKey: c.associate_key,
        SequenceIn: c.sequence_in,
        SequenceOut: c.sequence_out,
        IState: c.i_state,
        AccessoryId: c.accessory_id,
      })),
      Configs: configs.map((c) => ({ Id: c.id, TempId: c.temp_id, Category: c.category, DefineKey: c.define_key, Name: c.name })),
    });
  }
}
