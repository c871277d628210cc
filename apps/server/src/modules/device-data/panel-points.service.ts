/**
 * The rules of the legacy DeviceBaseData and DeviceControlData calls: a device's data points on its
 * basic-data or control panel. A point is added to the device's first panel of that kind (one is
 * made when it has none); a key appears once on a device's panels of a kind; the device must be one
 * the caller reaches, for writing when the call writes. The data point rules are the shared schema's.
 */
import {
  PANEL_TYPES,
  type AddPanelPointRequest,
  type DeviceDataDefineDto,
  type UpdatePanelPointRequest,
} from '@sluice/shared/device-data.schema';
import { isDataType } from '@sluice/shared/data-types';
import type { Language } from '@sluice/shared/i18n';
import { AppError } from '../../http/errors.ts';
import type { CurrentUser } from '../../auth/current-user.ts';
import type { SiteScope } from '../sites/site-scope.ts';
import type { PanelPointRow, PanelPointsRepository } from './panel-points.repository.ts';

export function panelPointDto(r: PanelPointRow): DeviceDataDefineDto {
  return {
    Id: r.id,
    DeviceSn: r.device_sn,
    PanelId: r.panel_id,
    DataKey: r.data_key,
    DisplayKey: r.display_key,
    DataName: r.data_name,
    Unit: r.unit,
    DataType: isDataType(r.data_type) ? r.data_type : 'string',
    DefaultValue: r.default_value,
    Format: r.format,
    AutoControl: r.auto_control === 1,
  };
}

const pointValues = (body: Omit<AddPanelPointRequest, 'DeviceSn'>) => ({
  data_key: body.DataKey,
  display_key: body.DisplayKey ?? '',
  data_name: body.DataName,
  unit: body.Unit ?? '',
  data_type: body.DataType,
  default_value: body.DefaultValue ?? '',
  format: body.Format,
  auto_control: body.AutoControl ? 1 : 0,
});

export class PanelPointsService {
  private readonly scope: SiteScope;
  private readonly repository: PanelPointsRepository;

  constructor(deps: { scope: SiteScope; repository: PanelPointsRepository }) {
    this.scope = deps.scope;
    this.repository = deps.repository;
  }

  async list(user: CurrentUser, panelType: number, sn: string): Promise<DeviceDataDefineDto[]> {
    const device = await this.scope.device(user, sn, 'read');
    return (await this.repository.list(user.groupId, device.device_sn, panelType)).map(panelPointDto);
  }

  async add(user: CurrentUser, panelType: number, body: AddPanelPointRequest, lang: Language): Promise<DeviceDataDefineDto> {
    const device = await this.scope.device(user, body.DeviceSn, 'write');
    await this.checkKey(user, device.device_sn, panelType, body.DataKey);
    const panelName = PANEL_TYPES.find((p) => p.Id === panelType)?.Name[lang] ?? '';
    const panelId = await this.repository.panelFor(user.groupId, device.device_sn, panelType, panelName);
    const row = await this.repository.insert({
      group_id: user.groupId,
      device_sn: device.device_sn,
      panel_id: panelId,
      ...pointValues(body),
    });
    return panelPointDto(row);
  }

  async update(user: CurrentUser, panelType: number, body: UpdatePanelPointRequest): Promise<DeviceDataDefineDto> {
    const point = await this.writable(user, panelType, body.Id);
    await this.checkKey(user, point.device_sn, panelType, body.DataKey, point.id);
    return panelPointDto(await this.repository.update(point.id, pointValues(body)));
  }

  async remove(user: CurrentUser, panelType: number, id: number): Promise<void> {
    const point = await this.writable(user, panelType, id);
    await this.repository.remove(point.id);
  }

  /** A point on a panel of the kind, of a device the user may change; 404 otherwise. */
  private async writable(user: CurrentUser, panelType: number, id: number): Promise<PanelPointRow> {
    const point = await this.repository.one(user.groupId, id, panelType);
    if (!point) throw new AppError(404, 'error.notFound');
    await this.scope.device(user, point.device_sn, 'write');
    return point;
  }

  private async checkKey(user: CurrentUser, sn: string, panelType: number, key: string, exceptId?: number): Promise<void> {
    if (await this.repository.keyTaken(user.groupId, sn, panelType, key, exceptId))
      throw new AppError(409, 'dataDefine.exists', { name: key }, 'DataKey');
  }
}
