import { useMemo, useState } from 'react';
import { App, Button, Dropdown, Flex, Select, Tag, Typography } from 'antd';
import { DownOutlined, DownloadOutlined, UploadOutlined } from '@ant-design/icons';
import { useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { addDataDefineRequest, updateDataDefineRequest, type DataDefineDto } from '@sluice/shared/data-define.schema';
import { DATA_TYPES } from '@sluice/shared/data-types';
import { splitList } from '@sluice/shared/schema-fields';
import { DataTypeTag } from '../../../components/data-value/data-define-select';
import { ResourceTable } from '../../../components/resource-table/resource-table';
import type { ResourceTableConfig } from '../../../components/resource-table/resource-types';
import { errorMessage } from '../../../lib/form-errors';
import { dataDefinesResource, exportLibrary, useAllCategories, type LibraryFormat } from '../api/data-defines-api';
import { dataTypeField, defaultValueField, formatField, unitField } from '../../../components/data-value/data-fields';
import { ImportDialog } from '../components/import-dialog';
import { FormatText } from '../../../components/data-value/format-text';
import { useMayOperate } from '../../../lib/operates';
import { StoredName } from '../../../components/stored-name';
import { DataValueText } from '../../../components/data-value/data-value-text';

/** /sys/dataDefine: the group's library of data points, with export and import as CSV or an Excel workbook. */
export function DataDefinePage() {
  const { t } = useTranslation();
  const mayManage = useMayOperate('system.manage');
  const { message } = App.useApp();
  const { data: categories = [] } = useAllCategories();
  const [importing, setImporting] = useState(false);
  const [exporting, setExporting] = useState(false);
  // The export follows the list's category filter (kept in the address).
  const [searchParams] = useSearchParams();
  const exportCategory = searchParams.get('Category') ?? undefined;

  const config = useMemo<ResourceTableConfig<DataDefineDto>>(
    () => ({
      resource: dataDefinesResource,
      rowName: (row) => row.DataKey,
      search: { placeholder: 'dataDefines.searchPlaceholder' },
      addLabel: 'dataDefines.add',
      defaultSort: { key: 'DataKey', order: 'asc' },
      filters: [
        {
          param: 'Category',
          label: 'dataDefines.category',
          allLabel: 'dataDefines.allCategories',
          options: categories.map((c) => ({ value: c.Name, text: c.Name })),
        },
        {
          param: 'DataType',
          label: 'dataDefines.dataType',
          allLabel: 'dataDefines.allDataTypes',
          options: DATA_TYPES.map((type) => ({ value: type, labelKey: `dataTypes.${type}` as const })),
        },
      ],
      columns: [
        {
          key: 'DataKey',
          title: 'dataDefines.dataKey',
          sortKey: 'DataKey',
          render: (row) => <Typography.Text code>{row.DataKey}</Typography.Text>,
        },
        { key: 'DataName', title: 'dataDefines.dataName', sortKey: 'DataName' },
        {
          key: 'DataType',
          title: 'dataDefines.dataType',
          sortKey: 'DataType',
          render: (row) => <DataTypeTag type={row.DataType} />,
        },
        { key: 'Unit', title: 'dataDefines.unit', sortKey: 'Unit' },
        {
          key: 'DefaultValue',
          title: 'dataDefines.defaultValue',
          render: (row) => <DataValueText dataType={row.DataType} format={row.Format} value={row.DefaultValue} unit={row.Unit} />,
        },
        {
          key: 'Format',
          title: 'dataDefines.format',
          width: 220,
          render: (row) => <FormatText dataType={row.DataType} format={row.Format} />,
        },
        { key: 'Model', title: 'dataDefines.model', sortKey: 'Model', onCards: false },
        {
          key: 'Category',
          title: 'dataDefines.category',
          render: (row) =>
            row.Category ? (
              <Flex gap={4} wrap>
                {splitList(row.Category).map((name) => (
                  <Tag key={name}>
                    <StoredName text={name} />
                  </Tag>
                ))}
              </Flex>
            ) : (
              <Typography.Text type="secondary">—</Typography.Text>
            ),
        },
      ],
      form: {
        createSchema: addDataDefineRequest,
        updateSchema: updateDataDefineRequest,
        createTitle: 'dataDefines.add',
        editTitle: 'dataDefines.edit',
        columns: 2,
        initialValues: { DataType: 'readable', Format: '', DefaultValue: '', Unit: '' },
        toValues: (row) => ({ ...row, Category: splitList(row.Category) }),
        fields: [
          { name: 'DataKey', label: 'dataDefines.dataKey', kind: 'text', help: 'dataDefines.dataKeyHelp' },
          { name: 'DataName', label: 'dataDefines.dataName', kind: 'text' },
          dataTypeField,
          unitField,
          formatField,
          defaultValueField,
          { name: 'Model', label: 'dataDefines.model', kind: 'text' },
          {
            name: 'Category',
            label: 'dataDefines.category',
            kind: 'custom',
            help: 'dataDefines.categoryHelp',
            render: ({ id }) => (
              <Select
                id={id}
                mode="tags"
                tokenSeparators={[',', '，']}
                options={categories.map((c) => ({ value: c.Name, label: c.Name }))}
              />
            ),
          },
        ],
      },
    }),
    [categories],
  );

  const onExport = async (format: LibraryFormat) => {
    setExporting(true);
    try {
      await exportLibrary(format, exportCategory);
    } catch (error) {
      void message.error(errorMessage(error));
    } finally {
      setExporting(false);
    }
  };

  return (
    <>
      <ResourceTable
        config={config}
        title={t('routes.dataDefine')}
        syncUrl
        toolbarExtra={
          <>
            <Dropdown
              trigger={['click']}
              disabled={exporting}
              menu={{
                items: [
                  { key: 'csv', label: t('dataDefines.exportCsv') },
                  { key: 'xlsx', label: t('dataDefines.exportXlsx') },
                ],
                onClick: ({ key }) => void onExport(key as LibraryFormat),
              }}
            >
              <Button
                icon={<DownloadOutlined aria-hidden />}
                loading={exporting}
                title={exportCategory ? t('dataDefines.exportCategory', { category: exportCategory }) : undefined}
              >
                {t('dataDefines.export')} <DownOutlined aria-hidden />
              </Button>
            </Dropdown>
            {mayManage && (
              <Button
                icon={<UploadOutlined aria-hidden />}
                onClick={() => {
                  setImporting(true);
                }}
              >
                {t('dataDefines.import')}
              </Button>
            )}
          </>
        }
      />
      <ImportDialog
        open={importing}
        onClose={() => {
          setImporting(false);
        }}
      />
    </>
  );
}
