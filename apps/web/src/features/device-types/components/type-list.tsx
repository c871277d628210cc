/**
 * The device types as a tree (ParentId): add, edit, delete (refused while a type has sub-types
 * or devices), copy, copy files, and open a type's workbench.
 */
import { useMemo, useState } from 'react';
import { Button, Dropdown, Flex, Tag } from 'antd';
import { CopyOutlined, DownOutlined, FileImageOutlined } from '@ant-design/icons';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { addDeviceTypeRequest, updateDeviceTypeRequest } from '@sluice/shared/device-type.schema';
import { ResourceTable } from '../../../components/resource-table/resource-table';
import type { ResourceTableConfig, TreeChoice } from '../../../components/resource-table/resource-types';
import { useDeviceTypes } from '../../../lib/common-params';
import { deviceTypesResource, type TypeRow } from '../api/device-types-api';
import { CopyTypeDialog, type CopyMode } from './copy-type-dialog';
import { IconName } from '../../../components/icon-name';
import { StoredName } from '../../../components/stored-name';

/** The flat list as a tree (a type whose parent is not listed becomes a root). */
export function typeTree<T extends { Id: number; ParentId: number }>(rows: T[]): (T & { children?: T[] })[] {
  const ids = new Set(rows.map((r) => r.Id));
  const childrenOf = new Map<number, T[]>();
  for (const row of rows) {
    const parent = ids.has(row.ParentId) ? row.ParentId : 0;
    childrenOf.set(parent, [...(childrenOf.get(parent) ?? []), row]);
  }
  const build = (parent: number, seen: Set<number>): (T & { children?: T[] })[] =>
    (childrenOf.get(parent) ?? [])
      .filter((row) => !seen.has(row.Id))
      .map((row) => {
        const below = build(row.Id, new Set([...seen, row.Id]));
        return below.length > 0 ? { ...row, children: below } : { ...row };
      });
  return build(0, new Set());
}

function choices(nodes: TypeRow[], excluded: number | undefined): TreeChoice[] {
  return nodes
    .filter((n) => n.Id !== excluded)
    .map((n) => ({ value: n.Id, title: n.TypeName, children: choices(n.children ?? [], excluded) }));
}

export const workbenchPath = (typeId: number, tab?: string) =>
  `/sys/devicetype?type=${String(typeId)}${tab ? `&tab=${tab}` : ''}`;

export function TypeList() {
  const { t } = useTranslation();
  const { data: all = [] } = useDeviceTypes();
  const [copying, setCopying] = useState<{ row: TypeRow; mode: CopyMode }>();

  const config = useMemo<ResourceTableConfig<TypeRow>>(() => {
    const tree = typeTree(all);
    const parentTree = (excluded?: number): TreeChoice[] => [
      { value: 0, title: t('deviceTypes.topLevel') },
      ...choices(tree, excluded),
    ];
    return {
      resource: deviceTypesResource,
      tree: true,
      transformRows: typeTree,
      rowName: (row) => row.TypeName,
      search: { placeholder: 'deviceTypes.searchPlaceholder' },
      addLabel: 'deviceTypes.add',
      defaultSort: { key: 'TypeName', order: 'asc' },
      columns: [
        {
          key: 'TypeName',
          title: 'deviceTypes.typeName',
          sortKey: 'TypeName',
          render: (row) => (
            <Link to={workbenchPath(row.Id)}>
              <StoredName text={row.TypeName} />
            </Link>
          ),
        },
        { key: 'ICON', title: 'deviceTypes.icon', onCards: false, render: (row) => <IconName name={row.ICON} /> },
        { key: 'Description', title: 'deviceTypes.description', ellipsis: true, width: 280 },
        {
          key: 'Status',
          title: 'deviceTypes.status',
          sortKey: 'Status',
          render: (row) =>
            row.Status === 1 ? <Tag color="green">{t('deviceTypes.inUse')}</Tag> : <Tag>{t('deviceTypes.disabled')}</Tag>,
        },
      ],
      rowActions: (row) => (
        <Dropdown
          trigger={['click']}
          menu={{
            items: [
              { key: 'copy', icon: <CopyOutlined aria-hidden />, label: t('deviceTypes.copyType') },
              { key: 'files', icon: <FileImageOutlined aria-hidden />, label: t('deviceTypes.copyFiles') },
            ],
            onClick: ({ key }) => {
              setCopying({ row, mode: key === 'files' ? 'files' : 'copy' });
            },
          }}
        >
          <Button
            type="link"
            size="small"
            icon={<CopyOutlined aria-hidden />}
            aria-label={t('deviceTypes.copyRow', { name: row.TypeName })}
          >
            {t('deviceTypes.copy')} <DownOutlined aria-hidden />
          </Button>
        </Dropdown>
      ),
      form: {
        createSchema: addDeviceTypeRequest,
        updateSchema: updateDeviceTypeRequest,
        createTitle: 'deviceTypes.add',
        editTitle: 'deviceTypes.edit',
        initialValues: { ParentId: 0, Status: 1 },
        fields: [
          { name: 'TypeName', label: 'deviceTypes.typeName', kind: 'text' },
          { name: 'ParentId', label: 'deviceTypes.parent', kind: 'tree-select', treeData: parentTree() },
          { name: 'ICON', label: 'deviceTypes.icon', kind: 'text', help: 'deviceTypes.iconHelp' },
          { name: 'Description', label: 'deviceTypes.description', kind: 'textarea' },
          {
            name: 'Status',
            label: 'deviceTypes.status',
            kind: 'radio',
            options: [
              { value: 1, labelKey: 'deviceTypes.inUse' },
              { value: 0, labelKey: 'deviceTypes.disabled' },
            ],
          },
        ],
        adjustFields: (fields, mode, row) =>
          mode === 'edit' && row
            ? fields.map((field) => (field.name === 'ParentId' ? { ...field, treeData: parentTree(row.Id) } : field))
            : fields,
      },
    };
  }, [all, t]);

  return (
    <Flex vertical gap={12}>
      <ResourceTable config={config} title={t('routes.deviceType')} description={t('deviceTypes.pageDescription')} syncUrl />
      <CopyTypeDialog
        key={copying ? `${String(copying.row.Id)}-${copying.mode}` : 'none'}
        source={copying?.row}
        mode={copying?.mode ?? 'copy'}
        onClose={() => {
          setCopying(undefined);
        }}
      />
    </Flex>
  );
}
