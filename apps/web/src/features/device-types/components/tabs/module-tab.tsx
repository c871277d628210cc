/**
 * A type's modules (type/{typeId}/TypeModule), each with its controls (TypeModuleControl of the
 * module: key, show type, class, unit, auto control and the Formula of its set and current
 * values) and its arguments (module/{moduleId}/TypeModuleArgument). Modules and controls are
 * put in order by dragging or by their number.
 */
import { useMemo } from 'react';
import { Flex, Input, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import {
  addModuleArgumentRequest,
  addModuleControlRequest,
  addTypeModuleRequest,
  updateModuleArgumentRequest,
  updateModuleControlRequest,
  updateTypeModuleRequest,
} from '@sluice/shared/device-type.schema';
import { DataDefineSelect } from '../../../../components/data-value/data-define-select';
import { UnitSelect } from '../../../../components/data-value/unit-select';
import { ResourceTable } from '../../../../components/resource-table/resource-table';
import type { ResourceTableConfig } from '../../../../components/resource-table/resource-types';
import { zodFieldRules } from '../../../../lib/zod-form';
import {
  classesResource,
  controlsResource,
  moduleArgumentsResource,
  modulesResource,
  useTypeDataKeys,
  type ModuleArgumentDto,
  type ModuleControlDto,
  type TypeModuleDto,
} from '../../api/device-types-api';
import { FormulaEditor } from '../formula-editor';
import { DataPointCell, useLibraryById, useTypePart } from '../type-lookups';
import { useStoredName } from '../../../../lib/stored-names';

export const SHOW_TYPES = ['switch', 'input', 'time', 'select', 'button', 'monitor'];
const MODULE_TYPES = ['pump', 'blower', 'dosing', 'station', 'valve', 'mixer', 'analyser'];

const controlShape = addModuleControlRequest.shape;

function ControlsTable({ typeId, module }: { typeId: number; module: TypeModuleDto }) {
  const { t } = useTranslation();
  const name = useStoredName();
  const classes = useTypePart(classesResource, typeId);
  const { data: keys = [] } = useTypeDataKeys(typeId);

  const config = useMemo<ResourceTableConfig<ModuleControlDto>>(() => {
    const className = new Map(classes.map((c) => [c.Id, c.Name]));
    return {
      resource: controlsResource,
      rowName: (row) => row.ControlName,
      addLabel: 'typeControls.add',
      defaultSort: { key: 'Sn', order: 'asc' },
      columns: [
        { key: 'Sn', title: 'typeControls.sn', sortKey: 'Sn', width: 60 },
        { key: 'ControlName', title: 'typeControls.controlName', sortKey: 'ControlName' },
        { key: 'Key', title: 'typeControls.key', render: (row) => <Typography.Text code>{row.Key}</Typography.Text> },
        { key: 'ShowType', title: 'typeControls.showType', render: (row) => (row.ShowType ? <Tag>{row.ShowType}</Tag> : '—') },
        {
          key: 'ClassId',
          title: 'typeControls.class',
          render: (row) => (row.ClassId ? (className.get(row.ClassId) ?? `#${String(row.ClassId)}`) : '—'),
        },
        { key: 'Unit', title: 'dataValue.unit' },
        {
          key: 'AutoControl',
          title: 'typeControls.autoControl',
          render: (row) => (row.AutoControl ? t('typeDataDefines.auto') : t('typeDataDefines.manual')),
        },
        {
          key: 'Formula',
          title: 'typeControls.formula',
          ellipsis: true,
          width: 200,
          render: (row) => (row.Formula ? <Typography.Text code>{row.Formula}</Typography.Text> : '—'),
        },
      ],
      form: {
        createSchema: addModuleControlRequest,
        updateSchema: updateModuleControlRequest,
        createTitle: 'typeControls.add',
        editTitle: 'typeControls.edit',
        columns: 2,
        initialValues: { AutoControl: false, Sn: 0, Formula: '', Unit: '' },
        fields: [
          { name: 'ModuleId', label: 'typeControls.module', kind: 'hidden' },
          { name: 'ControlName', label: 'typeControls.controlName', kind: 'text' },
          {
            name: 'DataDefineId',
            label: 'typeControls.dataDefine',
            kind: 'custom',
            rules: zodFieldRules(controlShape.DataDefineId),
            render: ({ id, form }) => (
              <DataDefineSelect
                id={id}
                onPick={(define) => {
                  if (!define) return;
                  // A new control starts from its data point's unit and format.
                  const values = form.getFieldsValue(['Unit', 'Format', 'ControlName']) as Record<string, unknown>;
                  form.setFieldsValue({
                    Unit: values.Unit ? values.Unit : define.Unit,
                    Format: values.Format ? values.Format : define.Format,
                    ControlName: values.ControlName ? values.ControlName : define.DataName,
                  });
                }}
              />
            ),
          },
          { name: 'Key', label: 'typeControls.key', kind: 'autocomplete', suggestions: keys, help: 'typeControls.keyHelp' },
          {
            name: 'ShowType',
            label: 'typeControls.showType',
            kind: 'autocomplete',
            suggestions: SHOW_TYPES,
            help: 'typeControls.showTypeHelp',
          },
          {
            name: 'ClassId',
            label: 'typeControls.class',
            kind: 'select',
            options: classes.map((c) => ({ value: c.Id, text: c.Name })),
          },
          { name: 'Unit', label: 'dataValue.unit', kind: 'custom', render: ({ id }) => <UnitSelect id={id} /> },
          { name: 'AutoControl', label: 'typeControls.autoControl', kind: 'switch' },
          {
            name: 'Formula',
            label: 'typeControls.formula',
            kind: 'custom',
            wide: true,
            help: 'typeControls.formulaHelp',
            rules: zodFieldRules(controlShape.Formula),
            render: ({ id }) => <FormulaEditor id={id} keys={keys} />,
          },
          {
            name: 'Format',
            label: 'typeControls.format',
            kind: 'custom',
            wide: true,
            render: ({ id }) => <Input.TextArea id={id} autoSize={{ minRows: 1, maxRows: 4 }} />,
          },
          { name: 'DataValue', label: 'typeControls.dataValue', kind: 'text' },
          { name: 'Sn', label: 'typeControls.sn', kind: 'number', min: 0 },
        ],
      },
    };
  }, [classes, keys, t]);

  return (
    <ResourceTable
      config={config}
      pathParams={{ typeId }}
      params={{ ModuleId: module.Id }}
      createPreset={{ ModuleId: module.Id }}
      title={t('typeControls.title', { name: name(module.ModuleName) })}
      headingLevel={3}
      compact
    />
  );
}

function ModuleArgumentsTable({ module }: { module: TypeModuleDto }) {
  const { t } = useTranslation();
  const name = useStoredName();
  const byId = useLibraryById();
  const config = useMemo<ResourceTableConfig<ModuleArgumentDto>>(
    () => ({
      resource: moduleArgumentsResource,
      rowName: (row) => row.Name,
      addLabel: 'moduleArguments.add',
      columns: [
        { key: 'Name', title: 'moduleArguments.name', sortKey: 'Name' },
        {
          key: 'DataDefineId',
          title: 'moduleArguments.dataDefine',
          render: (row) => <DataPointCell define={byId.get(row.DataDefineId)} fallback={row.DataDefineId} />,
        },
        { key: 'Category', title: 'moduleArguments.category', sortKey: 'Category' },
      ],
      form: {
        createSchema: addModuleArgumentRequest,
        updateSchema: updateModuleArgumentRequest,
        createTitle: 'moduleArguments.add',
        editTitle: 'moduleArguments.edit',
        fields: [
          {
            name: 'DataDefineId',
            label: 'moduleArguments.dataDefine',
            kind: 'custom',
            render: ({ id }) => <DataDefineSelect id={id} />,
          },
          { name: 'Name', label: 'moduleArguments.name', kind: 'text' },
          { name: 'Category', label: 'moduleArguments.category', kind: 'text' },
        ],
      },
    }),
    [byId],
  );
  return (
    <ResourceTable
      config={config}
      pathParams={{ moduleId: module.Id }}
      title={t('moduleArguments.title', { name: name(module.ModuleName) })}
      headingLevel={3}
      compact
    />
  );
}

function ModuleDetails({ typeId, module }: { typeId: number; module: TypeModuleDto }) {
  return (
    <Flex vertical gap={16} style={{ paddingBlock: 8 }}>
      <ControlsTable typeId={typeId} module={module} />
      <ModuleArgumentsTable module={module} />
    </Flex>
  );
}

export function ModuleTab({ typeId }: { typeId: number }) {
  const { t } = useTranslation();
  const config = useMemo<ResourceTableConfig<TypeModuleDto>>(
    () => ({
      resource: modulesResource,
      rowName: (row) => row.ModuleName,
      search: { placeholder: 'typeModules.searchPlaceholder' },
      addLabel: 'typeModules.add',
      defaultSort: { key: 'Sn', order: 'asc' },
      expandedRow: { label: 'typeModules.details', render: (row) => <ModuleDetails typeId={typeId} module={row} /> },
      columns: [
        { key: 'Sn', title: 'typeModules.sn', sortKey: 'Sn', width: 70 },
        { key: 'ModuleName', title: 'typeModules.moduleName', sortKey: 'ModuleName' },
        {
          key: 'ModuleType',
          title: 'typeModules.moduleType',
          sortKey: 'ModuleType',
          render: (row) => (row.ModuleType ? <Tag>{row.ModuleType}</Tag> : '—'),
        },
      ],
      form: {
        createSchema: addTypeModuleRequest,
        updateSchema: updateTypeModuleRequest,
        createTitle: 'typeModules.add',
        editTitle: 'typeModules.edit',
        initialValues: { Sn: 0 },
        fields: [
          { name: 'ModuleName', label: 'typeModules.moduleName', kind: 'text' },
          { name: 'ModuleType', label: 'typeModules.moduleType', kind: 'autocomplete', suggestions: MODULE_TYPES },
          { name: 'Sn', label: 'typeModules.sn', kind: 'number', min: 0 },
        ],
      },
    }),
    [typeId],
  );
  return <ResourceTable config={config} pathParams={{ typeId }} description={t('typeModules.description')} compact />;
}
