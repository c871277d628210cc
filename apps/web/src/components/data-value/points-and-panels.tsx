/**
 * The editors of a set of data points and the panels they sit in, shared by a type's templates
 * (profiles and template panels) and a device's own (DeviceDataDefine and DevicePanel): the
 * same columns, form fields and rules, told apart by the calls, the schemas, the owner's field
 * (TempId or DeviceSn) and the name of the panel-type field (PanelTypeId or typeId). Each owner's
 * form names its shared schemas itself, so that the console contract test checks both.
 */

/** Whose rows: a type template's or a device's. */
import { Tag, Typography } from 'antd';
import {
  PANEL_TYPES,
  addDeviceDataDefineRequest,
  addDevicePanelRequest,
  updateDeviceDataDefineRequest,
  updateDevicePanelRequest,
} from '@sluice/shared/device-data.schema';
import {
  addTemplatePanelRequest,
  addTemplateProfileRequest,
  updateTemplatePanelRequest,
  updateTemplateProfileRequest,
} from '@sluice/shared/device-template.schema';
import type { DataType } from '@sluice/shared/data-types';
import { currentLanguage } from '../../lib/i18n';
import type { Resource } from '../resource-table/resource';
import type { FormFieldDef, ResourceTableConfig } from '../resource-table/resource-types';
import { DataDefineSelect, DataTypeTag } from './data-define-select';
import { dataTypeField, defaultValueField, formatField, unitField } from './data-fields';
import { DataValueText } from './data-value-text';
export type PointsOwner = 'template' | 'device';

const templateOwner: FormFieldDef = { name: 'TempId', label: 'templates.template', kind: 'hidden' };
const deviceOwner: FormFieldDef = { name: 'DeviceSn', label: 'devices.fields.sn', kind: 'hidden', modes: ['create'] };
const devicePanelOwner: FormFieldDef = { name: 'deviceSn', label: 'devices.fields.sn', kind: 'hidden', modes: ['create'] };

/** A panel type's name in the user's language. */
export function usePanelTypeName(): (id: number) => string {
  const lang = currentLanguage();
  return (id: number) => PANEL_TYPES.find((p) => p.Id === id)?.Name[lang] ?? String(id);
}

export interface PointRowShape {
  Id: number;
  DataKey: string;
  DataName: string;
  DataType: DataType;
  Unit: string;
  Format: string;
  DefaultValue: string;
  PanelId: number | null;
  AutoControl: boolean;
}

export interface PanelChoice {
  Id: number;
  PanelName: string;
  /** The panel's type id. */
  type: number;
}

/** A data point's fields, after its owner's and before its panel. */
const POINT_FIELDS: FormFieldDef[] = [
  {
    name: 'DataKey',
    label: 'dataDefines.dataKey',
    kind: 'custom',
    help: 'templateProfiles.dataKeyHelp',
    render: ({ id, form }) => (
      <DataDefineSelect
        id={id}
        by="DataKey"
        onPick={(define) => {
          if (define) {
            form.setFieldsValue({
              DataName: define.DataName,
              DataType: define.DataType,
              Unit: define.Unit,
              Format: define.Format,
              DefaultValue: define.DefaultValue,
            });
          }
        }}
      />
    ),
  },
  { name: 'DisplayKey', label: 'templateProfiles.displayKey', kind: 'text' },
  { name: 'DataName', label: 'dataDefines.dataName', kind: 'text' },
  dataTypeField,
  unitField,
  formatField,
  defaultValueField,
];

const autoControlField: FormFieldDef = { name: 'AutoControl', label: 'typeDataDefines.autoControl', kind: 'switch' };

function panelField(panels: readonly PanelChoice[], panelTypeName: (id: number) => string): FormFieldDef {
  return {
    name: 'PanelId',
    label: 'templateProfiles.panel',
    kind: 'select',
    options: panels.map((p) => ({ value: p.Id, text: `${p.PanelName} (${panelTypeName(p.type)})` })),
  };
}

const pointsForm = {
  createTitle: 'templateProfiles.add',
  editTitle: 'templateProfiles.edit',
  columns: 2,
  initialValues: { DataType: 'readable', Format: '', DefaultValue: '', Unit: '', AutoControl: false },
  toBody: (values: Record<string, unknown>) => ({ ...values, PanelId: values.PanelId ?? null }),
} as const;

export function pointsTableConfig<Row extends PointRowShape>({
  resource,
  owner,
  panels,
  panelTypeName,
  autoLabel,
}: {
  resource: Resource<Row>;
  owner: PointsOwner;
  panels: readonly PanelChoice[];
  panelTypeName: (id: number) => string;
  autoLabel: (auto: boolean) => string;
}): ResourceTableConfig<Row> {
  const panelById = new Map(panels.map((p) => [p.Id, p]));
  return {
    resource,
    rowName: (row) => row.DataKey,
    search: { placeholder: 'templateProfiles.searchPlaceholder' },
    addLabel: 'templateProfiles.add',
    columns: [
      {
        key: 'DataKey',
        title: 'dataDefines.dataKey',
        sortKey: 'DataKey',
        render: (row) => <Typography.Text code>{row.DataKey}</Typography.Text>,
      },
      { key: 'DataName', title: 'dataDefines.dataName', sortKey: 'DataName' },
      { key: 'DataType', title: 'dataValue.dataType', render: (row) => <DataTypeTag type={row.DataType} /> },
      { key: 'Unit', title: 'dataValue.unit' },
      {
        key: 'DefaultValue',
        title: 'dataValue.defaultValue',
        render: (row) => <DataValueText dataType={row.DataType} format={row.Format} value={row.DefaultValue} unit={row.Unit} />,
      },
      {
        key: 'PanelId',
        title: 'templateProfiles.panel',
        render: (row) => (row.PanelId ? (panelById.get(row.PanelId)?.PanelName ?? `#${String(row.PanelId)}`) : '—'),
      },
      { key: 'AutoControl', title: 'typeDataDefines.autoControl', render: (row) => autoLabel(row.AutoControl) },
    ],
    form:
      owner === 'template'
        ? {
            ...pointsForm,
            createSchema: addTemplateProfileRequest,
            updateSchema: updateTemplateProfileRequest,
            fields: [templateOwner, ...POINT_FIELDS, panelField(panels, panelTypeName), autoControlField],
          }
        : {
            ...pointsForm,
            createSchema: addDeviceDataDefineRequest,
            updateSchema: updateDeviceDataDefineRequest,
            fields: [deviceOwner, ...POINT_FIELDS, panelField(panels, panelTypeName), autoControlField],
          },
  };
}

export interface PanelRowShape {
  Id: number;
  PanelName: string;
  Sn: number;
}

const PANEL_NAME_FIELD: FormFieldDef = { name: 'PanelName', label: 'templatePanels.panelName', kind: 'text' };
const PANEL_ORDER_FIELD: FormFieldDef = { name: 'Sn', label: 'templatePanels.sn', kind: 'number', min: 0 };

function panelTypeField(name: 'PanelTypeId' | 'typeId', panelTypeName: (id: number) => string): FormFieldDef {
  return {
    name,
    label: 'templatePanels.panelType',
    kind: 'select',
    options: PANEL_TYPES.map((p) => ({ value: p.Id, text: panelTypeName(p.Id) })),
  };
}

export function panelsTableConfig<Row extends PanelRowShape>({
  resource,
  owner,
  panelTypeName,
}: {
  resource: Resource<Row>;
  owner: PointsOwner;
  panelTypeName: (id: number) => string;
}): ResourceTableConfig<Row> {
  // The row's panel-type field: a template's PanelTypeId, a device's typeId.
  const typeField = owner === 'template' ? 'PanelTypeId' : 'typeId';
  const panelForm = {
    createTitle: 'templatePanels.add',
    editTitle: 'templatePanels.edit',
    initialValues: { Sn: 0, [typeField]: 2 },
  } as const;
  return {
    resource,
    rowName: (row) => row.PanelName,
    addLabel: 'templatePanels.add',
    columns: [
      { key: 'Sn', title: 'templatePanels.sn', width: 70 },
      { key: 'PanelName', title: 'templatePanels.panelName' },
      {
        key: typeField,
        title: 'templatePanels.panelType',
        render: (row) => <Tag>{panelTypeName(Number((row as Record<string, unknown>)[typeField]))}</Tag>,
      },
    ],
    form:
      owner === 'template'
        ? {
            ...panelForm,
            createSchema: addTemplatePanelRequest,
            updateSchema: updateTemplatePanelRequest,
            fields: [templateOwner, PANEL_NAME_FIELD, panelTypeField('PanelTypeId', panelTypeName), PANEL_ORDER_FIELD],
          }
        : {
            ...panelForm,
            createSchema: addDevicePanelRequest,
            updateSchema: updateDevicePanelRequest,
            fields: [devicePanelOwner, PANEL_NAME_FIELD, panelTypeField('typeId', panelTypeName), PANEL_ORDER_FIELD],
          },
  };
}
