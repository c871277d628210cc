/**
 * A type's templates (GetDeviceTypeTemplatePage by TypeId; one may be the standard one new
 * devices of the type start from) and, for the chosen template, its parts: data points
 * (profiles), panels, args, accessories, control data (in SequenceIn order) and configs.
 */
import { useMemo, useState } from 'react';
import { App, Button, Card, Flex, Tabs, Tag, Typography } from 'antd';
import { ImportOutlined, StarFilled, UnorderedListOutlined } from '@ant-design/icons';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { FullTemplateDto } from '@sluice/shared/device-template.schema';
import {
  addTemplateAccessoryRequest,
  addTemplateArgRequest,
  addTemplateConfigRequest,
  addTemplateControlDataRequest,
  addTemplateRequest,
  updateTemplateAccessoryRequest,
  updateTemplateArgRequest,
  updateTemplateConfigRequest,
  updateTemplateControlDataRequest,
  updateTemplateRequest,
} from '@sluice/shared/device-template.schema';
import { DataDefineSelect, DataTypeTag } from '../../../../components/data-value/data-define-select';
import { dataValueField, valueTypeField } from '../../../../components/data-value/data-fields';
import { ResourceTable } from '../../../../components/resource-table/resource-table';
import { panelsTableConfig, pointsTableConfig, usePanelTypeName } from '../../../../components/data-value/points-and-panels';
import type { FormFieldDef, ResourceTableConfig } from '../../../../components/resource-table/resource-types';
import { api } from '../../../../lib/api-client';
import { errorMessage } from '../../../../lib/form-errors';
import {
  accessoriesResource,
  argsResource,
  controlDataResource,
  panelsResource,
  profilesResource,
  templateConfigsResource,
  templatesResource,
  typeConfigsResource,
  typeDataDefinesResource,
  type TemplateAccessoryDto,
  type TemplateArgDto,
  type TemplateConfigDto,
  type TemplateControlDataDto,
  type TemplateDto,
  type TemplatePanelDto,
  type TemplateProfileDto,
} from '../../api/device-types-api';
import { useTemplatePart, useTypePart } from '../type-lookups';
import { IconName } from '../../../../components/icon-name';

const tempField: FormFieldDef = { name: 'TempId', label: 'templates.template', kind: 'hidden' };

/** Adds the type's data points that the template does not have yet as its profiles. */
function AddFromTypeButton({ template, profiles }: { template: TemplateDto; profiles: TemplateProfileDto[] }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const defines = useTypePart(typeDataDefinesResource, template.TypeId);
  const missing = defines.filter((d) => !profiles.some((p) => p.DataKey.toLowerCase() === d.DataKey.toLowerCase()));
  const adding = useMutation({
    mutationFn: async () => {
      for (const d of missing) {
        await api.post('/AddTemplateProfile', {
          TempId: template.Id,
          DataType: d.DataType,
          DataKey: d.DataKey,
          DataName: d.DataName,
          Unit: d.Unit,
          DefaultValue: d.DefaultValue,
          Format: d.Format,
          AutoControl: d.AutoControl,
        });
      }
      return missing.length;
    },
    onSuccess: (count) => {
      void message.success(t('templateProfiles.addedFromType', { count }));
      void queryClient.invalidateQueries({ queryKey: profilesResource.keys.all });
    },
    onError: (error) => {
      void message.error(errorMessage(error));
      void queryClient.invalidateQueries({ queryKey: profilesResource.keys.all });
    },
  });
  return (
    <Button
      icon={<ImportOutlined aria-hidden />}
      disabled={missing.length === 0}
      loading={adding.isPending}
      onClick={() => {
        adding.mutate();
      }}
    >
      {t('templateProfiles.addFromType', { count: missing.length })}
    </Button>
  );
}

function ProfilesTable({ template }: { template: TemplateDto }) {
  const { t } = useTranslation();
  const params = useMemo(() => ({ TempId: template.Id }), [template.Id]);
  const panels = useTemplatePart(panelsResource, template.Id);
  const profiles = useTemplatePart(profilesResource, template.Id);
  const panelTypeName = usePanelTypeName();
  const config = useMemo(
    () =>
      pointsTableConfig<TemplateProfileDto>({
        resource: profilesResource,
        owner: 'template',
        panels: panels.map((p) => ({ Id: p.Id, PanelName: p.PanelName, type: p.PanelTypeId })),
        panelTypeName,
        autoLabel: (auto) => (auto ? t('typeDataDefines.auto') : t('typeDataDefines.manual')),
      }),
    [panels, panelTypeName, t],
  );
  return (
    <ResourceTable
      config={config}
      params={params}
      createPreset={{ TempId: template.Id }}
      compact
      toolbarExtra={<AddFromTypeButton template={template} profiles={profiles} />}
    />
  );
}

function PanelsTable({ template }: { template: TemplateDto }) {
  const panelTypeName = usePanelTypeName();
  const config = useMemo(
    () =>
      panelsTableConfig<TemplatePanelDto>({
        resource: panelsResource,
        owner: 'template',
        panelTypeName,
      }),
    [panelTypeName],
  );
  return <ResourceTable config={config} params={{ TempId: template.Id }} createPreset={{ TempId: template.Id }} compact />;
}

function ArgsTable({ template }: { template: TemplateDto }) {
  const config = useMemo<ResourceTableConfig<TemplateArgDto>>(
    () => ({
      resource: argsResource,
      rowName: (row) => row.DataName,
      addLabel: 'templateArgs.add',
      columns: [
        { key: 'DataName', title: 'templateArgs.dataName' },
        { key: 'DataType', title: 'dataValue.dataType', render: (row) => <DataTypeTag type={row.DataType} /> },
        { key: 'DataValue', title: 'templateArgs.dataValue' },
      ],
      form: {
        createSchema: addTemplateArgRequest,
        updateSchema: updateTemplateArgRequest,
        createTitle: 'templateArgs.add',
        editTitle: 'templateArgs.edit',
        initialValues: { DataType: 'textbox', DataValue: '' },
        fields: [
          tempField,
          { name: 'DataName', label: 'templateArgs.dataName', kind: 'text' },
          valueTypeField,
          dataValueField('templateArgs.dataValue'),
        ],
      },
    }),
    [],
  );
  return <ResourceTable config={config} params={{ TempId: template.Id }} createPreset={{ TempId: template.Id }} compact />;
}

function AccessoriesTable({ template }: { template: TemplateDto }) {
  const config = useMemo<ResourceTableConfig<TemplateAccessoryDto>>(
    () => ({
      resource: accessoriesResource,
      rowName: (row) => row.Name,
      addLabel: 'templateAccessories.add',
      columns: [
        { key: 'Name', title: 'templateAccessories.name' },
        { key: 'ICON', title: 'templateAccessories.icon', render: (row) => <IconName name={row.ICON} /> },
      ],
      form: {
        createSchema: addTemplateAccessoryRequest,
        updateSchema: updateTemplateAccessoryRequest,
        createTitle: 'templateAccessories.add',
        editTitle: 'templateAccessories.edit',
        fields: [
          tempField,
          { name: 'Name', label: 'templateAccessories.name', kind: 'text' },
          { name: 'ICON', label: 'templateAccessories.icon', kind: 'text' },
        ],
      },
    }),
    [],
  );
  return <ResourceTable config={config} params={{ TempId: template.Id }} createPreset={{ TempId: template.Id }} compact />;
}

function ControlDataTable({ template }: { template: TemplateDto }) {
  const params = useMemo(() => ({ TempId: template.Id }), [template.Id]);
  const accessories = useTemplatePart(accessoriesResource, template.Id);
  const config = useMemo<ResourceTableConfig<TemplateControlDataDto>>(() => {
    const accessoryName = new Map(accessories.map((a) => [a.Id, a.Name]));
    return {
      resource: controlDataResource,
      rowName: (row) => row.ControlName,
      addLabel: 'templateControlData.add',
      columns: [
        { key: 'SequenceIn', title: 'templateControlData.sequenceIn', width: 80 },
        { key: 'SequenceOut', title: 'templateControlData.sequenceOut', width: 80 },
        { key: 'ControlName', title: 'templateControlData.controlName' },
        {
          key: 'DataDefineKey',
          title: 'templateControlData.dataDefineKey',
          render: (row) => (row.DataDefineKey ? <Typography.Text code>{row.DataDefineKey}</Typography.Text> : '—'),
        },
        {
          key: 'AssociateKey',
          title: 'templateControlData.associateKey',
          render: (row) => (row.AssociateKey ? <Typography.Text code>{row.AssociateKey}</Typography.Text> : '—'),
        },
        { key: 'DataValue', title: 'templateControlData.dataValue' },
        { key: 'IState', title: 'templateControlData.iState' },
        {
          key: 'AccessoryId',
          title: 'templateControlData.accessory',
          render: (row) => (row.AccessoryId ? (accessoryName.get(row.AccessoryId) ?? `#${String(row.AccessoryId)}`) : '—'),
        },
      ],
      form: {
        createSchema: addTemplateControlDataRequest,
        updateSchema: updateTemplateControlDataRequest,
        createTitle: 'templateControlData.add',
        editTitle: 'templateControlData.edit',
        columns: 2,
        initialValues: { SequenceIn: 0, SequenceOut: 0, IState: 0 },
        fields: [
          tempField,
          { name: 'ControlName', label: 'templateControlData.controlName', kind: 'text' },
          { name: 'DataValue', label: 'templateControlData.dataValue', kind: 'text' },
          {
            name: 'DataDefineKey',
            label: 'templateControlData.dataDefineKey',
            kind: 'custom',
            render: ({ id }) => <DataDefineSelect id={id} by="DataKey" allowClear />,
          },
          {
            name: 'AssociateKey',
            label: 'templateControlData.associateKey',
            kind: 'custom',
            render: ({ id }) => <DataDefineSelect id={id} by="DataKey" allowClear />,
          },
          { name: 'SequenceIn', label: 'templateControlData.sequenceIn', kind: 'number', min: 0 },
          { name: 'SequenceOut', label: 'templateControlData.sequenceOut', kind: 'number', min: 0 },
          { name: 'IState', label: 'templateControlData.iState', kind: 'number', min: 0, max: 9 },
          {
            name: 'AccessoryId',
            label: 'templateControlData.accessory',
            kind: 'select',
            options: accessories.map((a) => ({ value: a.Id, text: a.Name })),
          },
        ],
        toBody: (values) => ({ ...values, AccessoryId: values.AccessoryId ?? null }),
      },
    };
  }, [accessories]);
  return <ResourceTable config={config} params={params} createPreset={{ TempId: template.Id }} compact />;
}

function ConfigsTable({ template }: { template: TemplateDto }) {
  const typeConfigs = useTypePart(typeConfigsResource, template.TypeId);
  const config = useMemo<ResourceTableConfig<TemplateConfigDto>>(
    () => ({
      resource: templateConfigsResource,
      rowName: (row) => row.Name,
      search: { placeholder: 'templateConfigs.searchPlaceholder' },
      addLabel: 'templateConfigs.add',
      columns: [
        { key: 'Name', title: 'templateConfigs.name', sortKey: 'Name' },
        {
          key: 'DefineKey',
          title: 'templateConfigs.defineKey',
          sortKey: 'DefineKey',
          render: (row) => <Typography.Text code>{row.DefineKey}</Typography.Text>,
        },
        { key: 'Category', title: 'templateConfigs.category', sortKey: 'Category' },
      ],
      form: {
        createSchema: addTemplateConfigRequest,
        updateSchema: updateTemplateConfigRequest,
        createTitle: 'templateConfigs.add',
        editTitle: 'templateConfigs.edit',
        fields: [
          tempField,
          {
            name: 'Name',
            label: 'templateConfigs.name',
            kind: 'autocomplete',
            suggestions: [...new Set(typeConfigs.map((c) => c.DataName))],
          },
          {
            name: 'DefineKey',
            label: 'templateConfigs.defineKey',
            kind: 'custom',
            render: ({ id }) => <DataDefineSelect id={id} by="DataKey" />,
          },
          {
            name: 'Category',
            label: 'templateConfigs.category',
            kind: 'autocomplete',
            suggestions: [...new Set(typeConfigs.map((c) => c.Category).filter(Boolean))],
          },
        ],
      },
    }),
    [typeConfigs],
  );
  return <ResourceTable config={config} params={{ TempId: template.Id }} createPreset={{ TempId: template.Id }} compact />;
}

function TemplateParts({ templateId, typeId, onClose }: { templateId: number; typeId: number; onClose: () => void }) {
  const { t } = useTranslation();
  // The template as it is now (a rename or a new standard shows at once).
  const { data: full } = useQuery({
    queryKey: [templatesResource.key, 'full', templateId],
    queryFn: async () => (await api.get<FullTemplateDto>('/GetDeviceTypeTemplate', { Id: templateId })).data,
  });
  if (!full || full.TypeId !== typeId) return null;
  const template: TemplateDto = full;
  const items = [
    { key: 'profiles', label: t('templates.parts.profiles'), children: <ProfilesTable template={template} /> },
    { key: 'panels', label: t('templates.parts.panels'), children: <PanelsTable template={template} /> },
    { key: 'args', label: t('templates.parts.args'), children: <ArgsTable template={template} /> },
    { key: 'accessories', label: t('templates.parts.accessories'), children: <AccessoriesTable template={template} /> },
    { key: 'controlData', label: t('templates.parts.controlData'), children: <ControlDataTable template={template} /> },
    { key: 'configs', label: t('templates.parts.configs'), children: <ConfigsTable template={template} /> },
  ];
  return (
    <Card
      size="small"
      role="region"
      aria-label={t('templates.partsOf', { name: template.TempName })}
      title={
        <Flex gap={8} align="center" wrap>
          <h3 style={{ margin: 0, fontSize: 16 }}>{t('templates.partsOf', { name: template.TempName })}</h3>
          {template.IsStandard && (
            <Tag color="green" icon={<StarFilled aria-hidden />}>
              {t('templates.standard')}
            </Tag>
          )}
        </Flex>
      }
      extra={<Button onClick={onClose}>{t('common.close')}</Button>}
    >
      <Tabs items={items} size="small" />
    </Card>
  );
}

export function TemplateTab({ typeId }: { typeId: number }) {
  const { t } = useTranslation();
  const [open, setOpen] = useState<number>();
  const config = useMemo<ResourceTableConfig<TemplateDto>>(
    () => ({
      resource: templatesResource,
      rowName: (row) => row.TempName,
      search: { placeholder: 'templates.searchPlaceholder' },
      addLabel: 'templates.add',
      filters: [
        {
          param: 'IsStandard',
          label: 'templates.standard',
          allLabel: 'templates.allTemplates',
          options: [
            { value: 'true', labelKey: 'templates.onlyStandard' },
            { value: 'false', labelKey: 'templates.onlyOthers' },
          ],
        },
      ],
      columns: [
        { key: 'TempName', title: 'templates.tempName', sortKey: 'TempName' },
        {
          key: 'IsStandard',
          title: 'templates.standard',
          sortKey: 'IsStandard',
          render: (row) =>
            row.IsStandard ? (
              <Tag color="green" icon={<StarFilled aria-hidden />}>
                {t('templates.standard')}
              </Tag>
            ) : (
              '—'
            ),
        },
        { key: 'DeviceSn', title: 'templates.deviceSn' },
      ],
      rowActions: (row) => (
        <Button
          type="link"
          size="small"
          icon={<UnorderedListOutlined aria-hidden />}
          aria-label={t('templates.openParts', { name: row.TempName })}
          aria-pressed={open === row.Id}
          onClick={() => {
            setOpen(row.Id);
          }}
        >
          {t('templates.parts.title')}
        </Button>
      ),
      form: {
        createSchema: addTemplateRequest,
        updateSchema: updateTemplateRequest,
        createTitle: 'templates.add',
        editTitle: 'templates.edit',
        initialValues: { IsStandard: false },
        fields: [
          { name: 'TypeId', label: 'templates.type', kind: 'hidden' },
          { name: 'TempName', label: 'templates.tempName', kind: 'text' },
          { name: 'IsStandard', label: 'templates.isStandard', kind: 'switch', help: 'templates.isStandardHelp' },
          { name: 'DeviceSn', label: 'templates.deviceSn', kind: 'text', help: 'templates.deviceSnHelp' },
        ],
      },
    }),
    [open, t],
  );
  return (
    <Flex vertical gap={16}>
      <ResourceTable
        config={config}
        params={{ TypeId: typeId }}
        createPreset={{ TypeId: typeId }}
        description={t('templates.description')}
        compact
      />
      {open !== undefined && (
        <TemplateParts
          key={open}
          templateId={open}
          typeId={typeId}
          onClose={() => {
            setOpen(undefined);
          }}
        />
      )}
    </Flex>
  );
}
