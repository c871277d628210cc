/** A type's schema (type/{typeId}/TypeSchema): a tree of Name / Value nodes by SchemaType and ParentId. */
import { useMemo } from 'react';
import { Button, Tag } from 'antd';
import { PlusOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { addTypeSchemaRequest, updateTypeSchemaRequest } from '@sluice/shared/device-type.schema';
import { DataDefineSelect } from '../../../../components/data-value/data-define-select';
import { ResourceTable } from '../../../../components/resource-table/resource-table';
import type { ResourceTableConfig, TreeChoice } from '../../../../components/resource-table/resource-types';
import { schemaResource, type SchemaRow } from '../../api/device-types-api';
import { DataPointCell, useLibraryById, useTypePart } from '../type-lookups';

/** The flat list as a tree (a node whose parent is missing becomes a root). */
export function schemaTree(rows: SchemaRow[]): SchemaRow[] {
  const ids = new Set(rows.map((r) => r.Id));
  const childrenOf = new Map<number, SchemaRow[]>();
  for (const row of rows) {
    const parent = ids.has(row.ParentId) ? row.ParentId : 0;
    childrenOf.set(parent, [...(childrenOf.get(parent) ?? []), row]);
  }
  const build = (parent: number, seen: Set<number>): SchemaRow[] =>
    (childrenOf.get(parent) ?? [])
      .filter((row) => !seen.has(row.Id))
      .map((row) => {
        const below = build(row.Id, new Set([...seen, row.Id]));
        return { ...row, children: below.length > 0 ? below : undefined };
      });
  return build(0, new Set());
}

function choices(nodes: SchemaRow[], excluded: number | undefined): TreeChoice[] {
  return nodes
    .filter((node) => node.Id !== excluded)
    .map((node) => ({ value: node.Id, title: node.Name, children: choices(node.children ?? [], excluded) }));
}

export function SchemaTab({ typeId }: { typeId: number }) {
  const { t } = useTranslation();
  const byId = useLibraryById();
  const all = useTypePart(schemaResource, typeId);

  const config = useMemo<ResourceTableConfig<SchemaRow>>(() => {
    const tree = schemaTree(all);
    const parentTree = (excluded?: number): TreeChoice[] => [
      { value: 0, title: t('typeSchema.topLevel') },
      ...choices(tree, excluded),
    ];
    return {
      resource: schemaResource,
      tree: true,
      transformRows: schemaTree,
      rowName: (row) => row.Name,
      search: { placeholder: 'typeSchema.searchPlaceholder' },
      addLabel: 'typeSchema.add',
      columns: [
        { key: 'Name', title: 'typeSchema.name', sortKey: 'Name' },
        { key: 'Value', title: 'typeSchema.value' },
        {
          key: 'SchemaType',
          title: 'typeSchema.schemaType',
          sortKey: 'SchemaType',
          render: (row) => (row.SchemaType ? <Tag>{row.SchemaType}</Tag> : '—'),
        },
        {
          key: 'DataDefineId',
          title: 'typeSchema.dataDefine',
          render: (row) =>
            row.DataDefineId ? <DataPointCell define={byId.get(row.DataDefineId)} fallback={row.DataDefineId} /> : '—',
        },
      ],
      rowActions: (row, helpers) => (
        <Button
          type="link"
          size="small"
          icon={<PlusOutlined aria-hidden />}
          aria-label={t('typeSchema.addChildTo', { name: row.Name })}
          onClick={() => {
            helpers.create({ ParentId: row.Id, SchemaType: row.SchemaType });
          }}
        >
          {t('typeSchema.addChild')}
        </Button>
      ),
      form: {
        createSchema: addTypeSchemaRequest,
        updateSchema: updateTypeSchemaRequest,
        createTitle: 'typeSchema.add',
        editTitle: 'typeSchema.edit',
        initialValues: { ParentId: 0, SchemaType: 'process' },
        fields: [
          { name: 'Name', label: 'typeSchema.name', kind: 'text' },
          { name: 'Value', label: 'typeSchema.value', kind: 'text' },
          {
            name: 'SchemaType',
            label: 'typeSchema.schemaType',
            kind: 'autocomplete',
            suggestions: [...new Set(['process', ...all.map((r) => r.SchemaType).filter(Boolean)])],
          },
          { name: 'ParentId', label: 'typeSchema.parent', kind: 'tree-select', treeData: parentTree() },
          {
            name: 'DataDefineId',
            label: 'typeSchema.dataDefine',
            kind: 'custom',
            render: ({ id }) => <DataDefineSelect id={id} allowClear />,
          },
        ],
        // A node cannot move below itself.
        adjustFields: (fields, mode, row) =>
          mode === 'edit' && row
            ? fields.map((field) => (field.name === 'ParentId' ? { ...field, treeData: parentTree(row.Id) } : field))
            : fields,
        toBody: (values) => ({ ...values, DataDefineId: values.DataDefineId ?? null }),
      },
    };
  }, [all, byId, t]);

  return <ResourceTable config={config} pathParams={{ typeId }} description={t('typeSchema.description')} compact />;
}
